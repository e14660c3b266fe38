import type { CoreModule } from '../module';
import { OutboxMessage } from './outbox-message.entity';

/** Mail owed by committed changes (typed intents), delivered by the jobs. */
export const outboxModule: CoreModule = { name: 'outbox', entities: [OutboxMessage], resolvers: [] };

export { renderMail, formatInZone, type RenderedMail } from './render';
export { deliverOutboxMessage, dueOutboxMessageIds, outboxMessageId, DEFAULT_DELIVERY_POLICY, type DeliveryPolicy, type DeliveryResult } from './deliver';
export { mailTransportFromConfig, smtpMailTransport, type MailTransport, type OutgoingMail } from './mail-transport';
