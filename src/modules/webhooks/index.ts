import type { CoreModule } from '../module';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookDeliveryResolver } from './webhook-delivery.resolver';
import { WEBHOOK_ENDPOINT_RESOURCE, WebhookEndpointSecretResolver } from './webhook-endpoint.resolver';

export { createDispatcher, dispatchChanges, type DispatchDeps, type Dispatcher, type RecordReader } from './webhook-dispatch';
export { createDeliverer, deliverWebhooks, type Deliverer, dueWebhookEndpointIds, pendingDeliveryCount, pruneDeliveries } from './webhook-delivery';

/** Webhook endpoints (issue 24 §3): where the account's changes are to be sent, signed. */
export const webhooksModule: CoreModule = {
  name: 'webhooks',
  entities: [WebhookEndpoint],
  resolvers: [WEBHOOK_ENDPOINT_RESOURCE.resolver, WebhookEndpointSecretResolver, WebhookDeliveryResolver],
};
