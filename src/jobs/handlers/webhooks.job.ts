import { documentFetchOptions } from '../../modules/documents/document.fetch-job';
import { deliverWebhooks, dispatchChanges } from '../../modules/webhooks';
import type { JobHandler } from '../job-run';

/** Makes the deliveries of the changes recorded since the last run (src/modules/webhooks/webhook-dispatch.ts). */
export const dispatchWebhooksJob: JobHandler<'dispatch-webhooks'> = async (deps) => ({
  status: 'dispatched',
  ...(await dispatchChanges({ orm: deps.orm, queue: deps.queue, records: deps.records, origin: deps.config.publicUrl })),
});

/** Sends one endpoint's due deliveries in order (webhook-delivery.ts), through the fetcher's address rules. */
export const deliverWebhooksJob: JobHandler<'deliver-webhooks'> = async (deps, data, run) =>
  deliverWebhooks(
    { orm: deps.orm, queue: deps.queue, fetch: documentFetchOptions(deps.config), leaseSeconds: deps.leaseSeconds, signal: run.signal },
    data.endpointId,
  );
