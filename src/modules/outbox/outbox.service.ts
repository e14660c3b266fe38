import type { RequestContext } from '../../context/context';
import { inMutation } from '../../context/transaction';
import type { MailIntent } from './mail-intent';
import { OutboxMessage } from './outbox-message.entity';

export type { MailIntent, MailKind } from './mail-intent';

/**
 * Records a mail the service owes `recipientId`, in the current mutation's transaction, so it
 * commits (or rolls back) with the change. Delivery is a job's business (nodemailer over SMTP,
 * else the outbox stays readable); a delivery trigger belongs in ctx.afterCommit.
 */
export function recordMail(ctx: RequestContext, recipientId: number, intent: MailIntent): OutboxMessage {
  // An outbox row written outside a transaction could outlive a failed change.
  if (!inMutation(ctx)) throw new Error('recordMail() called outside a mutation');
  const message = ctx.em.create(OutboxMessage, {
    account: ctx.viewer.accountId,
    recipient: recipientId,
    kind: intent.kind,
    subjectType: intent.subject.type,
    subjectId: intent.subject.id,
    payload: { ...intent.payload },
  });
  ctx.em.persist(message);
  return message;
}

/**
 * v3 deliver_assignment_email / deliver_reassignment_email (§4.4, §4.6): a record's new owner is
 * mailed when the owner changed to someone, that someone is not the user making the change, and
 * the client did not turn the mail off (`deliver` null or absent means the default, true).
 * `before` is undefined for a new record.
 */
export function ownerMailOwed(ctx: RequestContext, before: number | null | undefined, after: number | null, deliver: boolean | null | undefined): after is number {
  return after !== null && after !== before && after !== ctx.viewer.userId && (deliver ?? true);
}
