/**
 * Every background job, by name, with the data it carries. The union is the whole contract between
 * what enqueues (after a commit, or the sweep) and what handles (`src/jobs/handlers/`, one file a job).
 * Data holds ids only: a handler reads the row as it is when the job runs, so a job that runs
 * late, twice or after a restart acts on the current state (handlers are idempotent).
 */
export interface JobPayloads {
  /** Deliver one outbox row (pending → sent, or a retry, or failed). */
  'deliver-mail': { readonly outboxMessageId: number };
  /** Fetch a document's URL into storage (pending → complete or error). */
  'fetch-document': { readonly documentId: number };
  /** Recurring: enqueue what is due and has no job (mail after a backoff, work lost to a crash). */
  sweep: Record<string, never>;
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES: readonly JobName[] = ['deliver-mail', 'fetch-document', 'sweep'];

/**
 * The one queued job a record may have: enqueueing again while one waits updates that job instead
 * of adding another (the sweep and a request may both ask). Null: no key (the sweep is a single
 * recurring job of its own).
 */
export function jobKey<N extends JobName>(name: N, data: JobPayloads[N]): string | null {
  if ('outboxMessageId' in data) return `mail:${data.outboxMessageId}`;
  if ('documentId' in data) return `document:${data.documentId}`;
  void name;
  return null;
}
