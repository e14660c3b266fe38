import type { CoreModule } from '../module';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxMessageFieldsResolver, OutboxResolver } from './outbox.resolver';

/** Mail owed by committed changes (typed intents), delivered by the jobs, read by admins (GraphQL) and operators (CLI). */
export const outboxModule: CoreModule = { name: 'outbox', entities: [OutboxMessage], resolvers: [OutboxResolver, OutboxMessageFieldsResolver] };

export { renderMail, formatInZone, type RenderedMail } from './render';
export { deliverOutboxMessage, dueOutboxMessageIds, outboxMessageId, DEFAULT_DELIVERY_POLICY, type DeliveryPolicy, type DeliveryResult } from './deliver';
export { mailTransportFromConfig, smtpMailTransport, type MailTransport, type OutgoingMail } from './mail-transport';
