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
  /** Make the webhook deliveries of the changes recorded since the last run (woken by the changes' NOTIFY). */
  'dispatch-webhooks': Record<string, never>;
  /** Send one endpoint's due deliveries, in order. */
  'deliver-webhooks': { readonly endpointId: number };
  /** Write one export's file from a snapshot (queued or a dead worker's → done, failed or cancelled). */
  'run-export': { readonly exportId: number };
  /** Run (or resume) one bulk import: stage its file, then apply it (src/modules/imports/import.run.ts). */
  'run-import': { readonly importId: number };
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES: readonly JobName[] = ['deliver-mail', 'fetch-document', 'sweep', 'dispatch-webhooks', 'deliver-webhooks', 'run-export', 'run-import'];

/**
 * The one queued job a record may have: enqueueing again while one waits updates that job instead
 * of adding another (the sweep and a request may both ask). Null: no key (the sweep is a single
 * recurring job of its own).
 */
export function jobKey<N extends JobName>(name: N, data: JobPayloads[N]): string | null {
  if ('outboxMessageId' in data) return `mail:${data.outboxMessageId}`;
  if ('documentId' in data) return `document:${data.documentId}`;
  if ('endpointId' in data) return `webhook:${data.endpointId}`;
  if ('exportId' in data) return `export:${data.exportId}`;
  if ('importId' in data) return `import:${data.importId}`;
  // One dispatch waits at most: the changes' notifications while one waits are the same work.
  if (name === 'dispatch-webhooks') return 'webhooks:dispatch';
  return null;
}
