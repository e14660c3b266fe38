import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxMessage } from './outbox-message.entity';

export interface MailIntent {
  readonly accountId: number;
  readonly recipientId: number;
  readonly kind: string;
  readonly subjectType: string;
  readonly subjectId: number;
  readonly payload?: Record<string, unknown>;
}

/**
 * Records a mail the service owes, in the caller's unit of work (so it commits with the change).
 * Delivery is a job's business (nodemailer over SMTP, else the outbox stays readable).
 */
export function recordMail(em: EntityManager, intent: MailIntent): OutboxMessage {
  const message = em.create(OutboxMessage, {
    account: intent.accountId,
    recipient: intent.recipientId,
    kind: intent.kind,
    subjectType: intent.subjectType,
    subjectId: intent.subjectId,
    payload: intent.payload ?? {},
  });
  em.persist(message);
  return message;
}
