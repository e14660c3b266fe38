import { documentFetchOptions } from '../../modules/documents/document.fetch-job';
import { deliverWebhooks } from '../../modules/webhooks';
import type { JobHandler } from '../job-run';

/** Makes the deliveries of the changes recorded since the last pass, through this worker's dispatcher (src/modules/webhooks/webhook-dispatch.ts). */
export const dispatchWebhooksJob: JobHandler<'dispatch-webhooks'> = async (deps) => {
  const { changes, deliveries } = await deps.dispatcher.run();
  return { status: 'dispatched', changes, deliveries };
};

/** Sends one endpoint's due deliveries in order (webhook-delivery.ts), through the fetcher's address rules; a long backlog goes on in a run after this one. */
export const deliverWebhooksJob: JobHandler<'deliver-webhooks'> = async (deps, data, run) => {
  const outcome = await deliverWebhooks(
    { orm: deps.orm, queue: deps.queue, fetch: documentFetchOptions(deps.config), leaseSeconds: deps.leaseSeconds, signal: run.signal },
    data.endpointId,
  );
  if (outcome.status === 'more') await deps.queue.enqueue('deliver-webhooks', { endpointId: data.endpointId });
  return outcome;
};
