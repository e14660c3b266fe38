import { dueDocumentIds } from '../../modules/documents/document.fetch-job';
import { pruneChanges } from '../../modules/changes';
import { dueOutboxMessageIds } from '../../modules/outbox';
import { dueWebhookEndpointIds, pruneDeliveries } from '../../modules/webhooks';
import type { JobHandler } from '../job-run';

/** Rows one sweep enqueues at most, per kind; a larger backlog takes several sweeps. */
export const SWEEP_BATCH = 500;
/** Changes one prune statement removes, and how many such statements one sweep runs at most. */
export const PRUNE_BATCH = 5000;
const PRUNE_BATCHES = 10;

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
      (await pruneDeliveries(deps.orm, deps.config.changesRetentionDays, PRUNE_BATCH));
    pruned += removed;
    if (removed < PRUNE_BATCH) break;
  }
  return { status: 'swept', mail: mail.length, documents: documents.length, webhooks: endpoints.length, pruned };
};
