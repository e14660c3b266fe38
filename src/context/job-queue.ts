import type { JobName, JobPayloads } from './job-names';

/** Where work for the workers goes: Agenda in a running service (src/jobs/agenda-queue.ts). */
export interface JobQueue {
  /** Due now, or at `at` (a retry's time): a record has one job due now and one waiting for later at most. */
  enqueue<N extends JobName>(name: N, data: JobPayloads[N], at?: Date): Promise<void>;
}

/**
 * No queue: nothing is enqueued and the work waits for the sweep of a worker on the same database
 * (its state is in the rows: pending documents, due outbox rows). For contexts built outside a
 * server (the CLI, tests of services).
 */
export const NO_QUEUE: JobQueue = Object.freeze({ enqueue: async () => undefined });
