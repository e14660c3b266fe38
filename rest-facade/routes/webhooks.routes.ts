import { webhookResource } from '../resources/webhook';
import { adminList, fieldsOf } from './admin.routes';
import type { RouteDeclaration } from './route-spec';

const [index, show, create, update, remove] = adminList('webhooks', webhookResource, fieldsOf('webhookEndpoints', 'webhookEndpoint'));

/**
 * DECISIONS (Webhooks): `/admin/webhooks.json`, as the official Ruby client calls it
 * (`pipeline.webhooks.create/all/destroy`, recorded in webhooks_*.yml): administrators only (403
 * {"error"} for others, reads too); the index answers `{"webhooks": [...]}` (no envelope, one
 * page of up to 200); create takes `{"webhook": {"event_model", "event_action", "url",
 * "failure_email"}}`; a delete answers `null` with 200.
 */
export const WEBHOOK_ROUTES: readonly RouteDeclaration[] = [{ ...index, entriesKey: 'webhooks' }, show, create, update, { ...remove, deleteBody: 'null' }];
