import type { Dispatcher } from '../modules/webhooks';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config';
import type { DocumentStorage } from '../modules/documents/storage';
import type { DeliveryPolicy, MailTransport } from '../modules/outbox';
import type { JobName, JobPayloads } from '../context/job-names';
import type { JobQueue } from '../context/job-queue';

/** What every handler may use: built once per worker. */
export interface JobDeps {
  readonly orm: MikroORM;
  readonly config: Config;
  /** Null without `SMTP_URL`: mail stays pending in the outbox, readable, and nothing is sent. */
  readonly transport: MailTransport | null;
  readonly deliveryPolicy: DeliveryPolicy;
  /** How long a claimed row (a document's fetch, a mail's send) is left to its worker: the job lock's lifetime. */
  readonly leaseSeconds: number;
  readonly storage: DocumentStorage;
  readonly queue: JobQueue;
  /** This worker's webhook dispatcher (one pass at a time; its deliveries carry records read as their owners read them over v3, record-reader.ts). */
  readonly dispatcher: Dispatcher;
}

/** One run of one job. */
export interface JobRun {
  readonly jobId: string;
  /** Aborted when the worker shuts down past its grace period: stop, leave the row for a later run. */
  readonly signal: AbortSignal;
}

/**
 * What a run did, for the log and the tests. Handlers are idempotent: the state lives in the rows
 * (claimed with a lease, recorded once), so a run that finds nothing to do says `skipped`.
 * Unexpected failures (the database gone) are thrown instead, and the job is retried with backoff.
 */
export interface JobOutcome {
  readonly status: string;
  readonly [detail: string]: unknown;
}

export type JobHandler<N extends JobName> = (deps: JobDeps, data: JobPayloads[N], run: JobRun) => Promise<JobOutcome>;

export type JobHandlers = { readonly [N in JobName]: JobHandler<N> };
