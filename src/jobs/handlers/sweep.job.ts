import { dueDocumentIds } from '../../modules/documents/document.fetch-job';
import { dueExportIds, removeExpiredExports } from '../../modules/exports';
import { dueImportIds, pruneExpiredUploads, pruneFinishedImportFiles } from '../../modules/imports/import.service';
import { pruneChanges } from '../../modules/changes';
import { IdempotencyStore } from '../../db/idempotency-keys';
import { dueOutboxMessageIds } from '../../modules/outbox';
import { dueWebhookEndpointIds, pruneDeliveries } from '../../modules/webhooks';
import type { JobHandler } from '../job-run';

/** Rows one sweep enqueues at most, per kind; a larger backlog takes several sweeps. */
export const SWEEP_BATCH = 500;
/** Changes one prune statement removes, and how many such statements one sweep runs at most. */
export const PRUNE_BATCH = 5000;
const PRUNE_BATCHES = 10;
/** A storage write's temporary file untouched this long is left over from a killed process; the folders are walked for them at most this often per process. */
export const STALE_TEMPORARY_MS = 3_600_000;
let staleWalkedAt = 0;

/**
 * The safety net under enqueue-after-commit: everything whose state says it is due and that no
 * worker holds (a mail whose backoff ended, a row whose enqueue failed after its commit, work a
 * killed worker held until its lease ran out) is enqueued again. A record's job is unique, so a
 * row with a job waiting is not doubled. It also prunes the changes past their retention.
 */
export const sweep: JobHandler<'sweep'> = async (deps, _data, run) => {
  const em = deps.orm.em.fork();
  let enqueued = 0;
  const mail = deps.transport ? await dueOutboxMessageIds(em, SWEEP_BATCH) : [];
  for (const outboxMessageId of mail) {
    if (run.signal.aborted) return { status: 'cut short', enqueued };
    await deps.queue.enqueue('deliver-mail', { outboxMessageId });
    enqueued += 1;
  }
  const documents = await dueDocumentIds(em, SWEEP_BATCH);
  for (const documentId of documents) {
    if (run.signal.aborted) return { status: 'cut short', enqueued };
    await deps.queue.enqueue('fetch-document', { documentId });
    enqueued += 1;
  }
  // Exports queued without a job, or held by a worker that died (its lease ran out): started again.
  // (Not named `exports`: in the CommonJS build that name is the module's own object.)
  const dueExports = await dueExportIds(em, SWEEP_BATCH);
  for (const exportId of dueExports) {
    if (run.signal.aborted) return { status: 'cut short', enqueued };
    await deps.queue.enqueue('run-export', { exportId });
    enqueued += 1;
  }
  // Imports queued or running whose worker's lease ran out (a killed worker): resumed from their checkpoint.
  for (const importId of await dueImportIds(em, SWEEP_BATCH)) {
    if (run.signal.aborted) return { status: 'cut short', enqueued };
    await deps.queue.enqueue('run-import', { importId });
    enqueued += 1;
  }
  // Uploads never imported, past their 24 hours: their files and rows.
  const uploads = await pruneExpiredUploads(em, deps.storage, SWEEP_BATCH);
  // Finished imports' files past IMPORT_FILE_RETENTION_DAYS (their failed-rows download ends).
  const importFiles = await pruneFinishedImportFiles(em, deps.storage, deps.config.imports.fileRetentionDays, SWEEP_BATCH);
  // Webhooks: the changes not dispatched yet (a lost notification), and endpoints whose next delivery is due (a retry's time came).
  await deps.queue.enqueue('dispatch-webhooks', {});
  const endpoints = await dueWebhookEndpointIds(deps.orm, SWEEP_BATCH);
  for (const endpointId of endpoints) {
    if (run.signal.aborted) return { status: 'cut short', enqueued };
    await deps.queue.enqueue('deliver-webhooks', { endpointId });
    enqueued += 1;
  }
  // Changes past their retention, a batch at a time, at most a few batches a sweep.
  let pruned = 0;
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    if (run.signal.aborted) return { status: 'cut short', enqueued, pruned };
    const removed =
      (await pruneChanges(em, deps.config.changesRetentionDays, PRUNE_BATCH)) +
      (await pruneDeliveries(deps.orm, deps.config.changesRetentionDays, PRUNE_BATCH)) +
      (await new IdempotencyStore(deps.orm, deps.config.idempotencyKeyTtlHours).prune(PRUNE_BATCH));
    pruned += removed;
    if (removed < PRUNE_BATCH) break;
  }
  // Partial files of writes a killed process cut short (an export, an upload, a fetch).
  let partialFiles = 0;
  if (Date.now() - staleWalkedAt >= STALE_TEMPORARY_MS) {
    staleWalkedAt = Date.now();
    partialFiles = await deps.storage.removeStale(STALE_TEMPORARY_MS, SWEEP_BATCH * 10);
  }
  // Export files past their link's expiry.
  const expiredExports = await removeExpiredExports(em, deps.storage, SWEEP_BATCH);
  return {
    status: 'swept',
    mail: mail.length,
    documents: documents.length,
    exports: dueExports.length,
    expiredExports,
    webhooks: endpoints.length,
    pruned,
    uploads,
    importFiles,
    partialFiles,
  };
};
