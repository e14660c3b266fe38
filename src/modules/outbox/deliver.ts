import type { EntityManager } from '@mikro-orm/postgresql';
import type { MailTransport } from './mail-transport';
import { type OutboxMessage, OutboxStatus } from './outbox-message.entity';
import { MailIntentInvalid, MailRecipientMissing, MailWithheld, renderMail, type MailToRender } from './render';

/** How hard a row is tried. */
export interface DeliveryPolicy {
  /** Attempts (claims) after which a row that still fails ends `failed`. */
  readonly maxAttempts: number;
  /** Seconds to wait after the `attempt`-th failure (1-based). */
  readonly backoffSeconds: (attempt: number) => number;
  /**
   * How long a claimed row is left to its deliverer. A deliverer killed mid-send leaves the row
   * pending, due again when the lease ends (at-least-once); longer than any send can take
   * (the SMTP transport's timeouts add up to well under a minute).
   */
  readonly leaseSeconds: number;
}

/** 1, 2, 4 … minutes, at most 6 hours apart; 8 attempts span about 4 hours. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = Object.freeze({
  maxAttempts: 8,
  backoffSeconds: (attempt: number) => Math.min(60 * 2 ** Math.max(0, attempt - 1), 6 * 3600),
  leaseSeconds: 300,
});

export type DeliveryResult =
  | { readonly status: 'sent'; readonly attempts: number; readonly messageId: string }
  | { readonly status: 'retry'; readonly attempts: number; readonly nextAttemptAt: Date; readonly error: string }
  | { readonly status: 'failed'; readonly attempts: number; readonly error: string }
  /** Nothing done: already sent or failed, gone, claimed by another deliverer, or backing off. */
  | { readonly status: 'skipped' };

/**
 * The Message-ID of an outbox row: the same for every attempt of that row, so a mail delivered
 * twice (at-least-once: a send accepted but not recorded) can be recognised as one by clients.
 * The row's creation time keeps ids apart across databases that reuse row ids.
 */
export function outboxMessageId(row: { readonly id: number; readonly createdAt: Date }, domain: string): string {
  return `<outbox.${row.id}.${row.createdAt.getTime().toString(36)}@${domain}>`;
}

/** A failure as stored: one line, short, no URL credentials (the transport already redacts its own). */
export function sanitiseReason(err: unknown): string {
  const e = (err ?? {}) as { message?: unknown; code?: unknown; responseCode?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(err);
  const code = [typeof e.code === 'string' ? e.code : null, typeof e.responseCode === 'number' ? String(e.responseCode) : null].filter(Boolean).join(' ');
  const flat = `${code && !message.startsWith(code) ? `${code}: ` : ''}${message}`
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1***@')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat || 'unknown error';
}

interface ClaimedRow {
  id: number;
  account_id: number;
  recipient_id: number;
  recipient_address: string | null;
  kind: OutboxMessage['kind'];
  subject_type: string;
  subject_id: number;
  payload: Record<string, unknown>;
  created_at: Date | string;
  attempts: number;
}

/**
 * Delivers one outbox row, at least once and recorded once:
 *
 * 1. Claim: one conditional UPDATE (status pending, due) counts the attempt and sets a lease, in
 *    its own statement outside any transaction of `em`, so two deliverers of the same row (a
 *    retried job, two workers) cannot both send it: the second finds it not due and skips.
 * 2. Render (after the claim, so the mail shows the record as it is now) and send, with the
 *    row's stable Message-ID.
 * 3. Record: sent (pending → sent, once, only by the claim's holder), or the failure: a retry after
 *    the policy's backoff, or `failed` with a short sanitised reason after the last attempt. A row
 *    whose payload cannot be rendered fails at once (a retry would fail the same way), as does one
 *    about a record its recipient may no longer see (MailWithheld: `failed`, nothing sent).
 */
export async function deliverOutboxMessage(
  em: EntityManager,
  transport: MailTransport,
  message: OutboxMessage | number,
  policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY,
): Promise<DeliveryResult> {
  const id = typeof message === 'number' ? message : message.id;
  const conn = em.getConnection();
  const [claimed] = await conn.execute<ClaimedRow[]>(
    `update "outbox_messages" set "attempts" = "attempts" + 1, "next_attempt_at" = now() + make_interval(secs => ?)
       where "id" = ? and "status" = ? and ("next_attempt_at" is null or "next_attempt_at" <= now())
       returning "id", "account_id", "recipient_id", "recipient_address", "kind", "subject_type", "subject_id", "payload", "created_at", "attempts"`,
    [policy.leaseSeconds, id, OutboxStatus.PENDING],
    'all',
  );
  if (!claimed) return { status: 'skipped' };
  const row: MailToRender = {
    id: claimed.id,
    accountId: claimed.account_id,
    recipientId: claimed.recipient_id,
    recipientAddress: claimed.recipient_address,
    kind: claimed.kind,
    subjectType: claimed.subject_type,
    subjectId: claimed.subject_id,
    payload: typeof claimed.payload === 'string' ? (JSON.parse(claimed.payload) as Record<string, unknown>) : claimed.payload,
    createdAt: new Date(claimed.created_at),
  };
  const attempts = claimed.attempts;
  const messageId = outboxMessageId(row, transport.messageIdDomain);

  try {
    // A fork: rendering reads current rows, never entities the caller's unit of work holds.
    const mail = await renderMail(em.fork({ clear: true }), row);
    await transport.send({ from: transport.from, ...mail, messageId, headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' } });
  } catch (err) {
    const error = sanitiseReason(err);
    // A retry would render the same way. A withheld mail too is given up at once: mailing later,
    // should the recipient see the record again, would be late news of a change they had lost.
    const permanent = err instanceof MailIntentInvalid || err instanceof MailRecipientMissing || err instanceof MailWithheld;
    if (permanent || attempts >= policy.maxAttempts) {
      await conn.execute(
        `update "outbox_messages" set "status" = ?, "next_attempt_at" = null, "last_error" = ? where "id" = ? and "status" = ? and "attempts" = ?`,
        [OutboxStatus.FAILED, error, id, OutboxStatus.PENDING, attempts],
        'run',
      );
      return { status: 'failed', attempts, error };
    }
    const [retry] = await conn.execute<Array<{ next_attempt_at: Date | string }>>(
      `update "outbox_messages" set "next_attempt_at" = now() + make_interval(secs => ?), "last_error" = ?
         where "id" = ? and "status" = ? and "attempts" = ? returning "next_attempt_at"`,
      [policy.backoffSeconds(attempts), error, id, OutboxStatus.PENDING, attempts],
      'all',
    );
    return { status: 'retry', attempts, nextAttemptAt: new Date(retry?.next_attempt_at ?? Date.now()), error };
  }

  // "attempts = ?": only the claim's holder records; a lease that ran out (another deliverer
  // claimed the row meanwhile) leaves the row to that deliverer.
  await conn.execute(
    `update "outbox_messages" set "status" = ?, "sent_at" = now(), "next_attempt_at" = null, "last_error" = null where "id" = ? and "status" = ? and "attempts" = ?`,
    [OutboxStatus.SENT, id, OutboxStatus.PENDING, attempts],
    'run',
  );
  return { status: 'sent', attempts, messageId };
}

/** Ids of the rows due for delivery, oldest first: what a delivery job or sweep picks up. */
export async function dueOutboxMessageIds(em: EntityManager, limit = 100): Promise<number[]> {
  const rows = await em
    .getConnection()
    .execute<Array<{ id: number }>>(
      `select "id" from "outbox_messages" where "status" = ? and ("next_attempt_at" is null or "next_attempt_at" <= now()) order by "created_at", "id" limit ?`,
      [OutboxStatus.PENDING, limit],
      'all',
    );
  return rows.map((r: { id: number }) => r.id);
}
