import type { EntityManager } from '@mikro-orm/postgresql';
import { ForbiddenError, ValidationFailed } from '../../common/errors';
import { enqueueAfterCommit, type RequestContext } from '../../context/context';
import { inMutation } from '../../context/transaction';
import { keysetPage, type OrderKey } from '../../db/keyset';
import { Where } from '../../db/sql';
import { Connection, type ConnectionReads, type Paging } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';
import type { MailIntent, MailKind } from './mail-intent';
import { OutboxMessage, type OutboxStatus } from './outbox-message.entity';
import { OUTBOX_LIST_DEFAULT, OUTBOX_LIST_MAX } from './outbox-status';
import { MailIntentInvalid, MailRecipientMissing, MailWithheld, mailToRender, renderMail, type MailToRender } from './render';

export type { MailIntent, MailKind } from './mail-intent';

/**
 * Records a mail the service owes `recipientId`, in the current mutation's transaction, so it
 * commits (or rolls back) with the change, and enqueues its delivery once the change commits
 * (nothing is enqueued on rollback). Delivery is a job's business (nodemailer over SMTP, else the
 * outbox stays readable); a lost enqueue only delays the mail: the worker's sweep finds the row due.
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
  // The id exists once the commit flushed the row: read then, not now.
  enqueueAfterCommit(ctx, 'deliver-mail', () => ({ outboxMessageId: message.id }));
  return message;
}

/**
 * v3 deliver_assignment_email / deliver_reassignment_email (§4.4, §4.6): a record's new owner is
 * mailed when the owner changed to someone, that someone is not the user making the change, and
 * the client did not turn the mail off (`deliver` null or absent means the default, true).
 * `before` is undefined for a new record.
 */
export function ownerMailOwed(
  ctx: RequestContext,
  before: number | null | undefined,
  after: number | null,
  deliver: boolean | null | undefined,
): after is number {
  return after !== null && after !== before && after !== ctx.viewer.userId && (deliver ?? true);
}

// ---------------------------------------------------------------------------------------------
// Reading the outbox (issue 13 §2: admins over GraphQL, operators with the CLI)

/** DECISIONS (Paging): every list the spec does not name answers 100 a page by default. */
export const OUTBOX_PAGE_SIZE = 100;

/** Newest first; rows of the same instant (one change mailing several users) by id, newest first too. */
const NEWEST_FIRST: readonly OrderKey[] = [
  { sql: 'o.created_at', desc: true, nullable: false, type: 'timestamp' },
  { sql: 'o.id', desc: true, nullable: false, type: 'int' },
];

/** Which rows of the account's outbox: every condition given holds. */
export interface OutboxFilter {
  readonly status?: OutboxStatus | null;
  readonly kind?: MailKind | null;
  readonly recipientId?: number | null;
}

/** What a preview shows: the mail as it would be sent now. */
export interface MailPreview {
  readonly subject: string;
  readonly text: string;
}

function conditions(accountId: number, filter: OutboxFilter): Where {
  const where = new Where().add('o.account_id = ?', accountId);
  if (filter.status != null) where.add('o.status = ?', filter.status);
  if (filter.kind != null) where.add('o.kind = ?', filter.kind);
  if (filter.recipientId != null) where.add('o.recipient_id = ?', filter.recipientId);
  return where;
}

/**
 * A row's mail as it would be rendered now, or null when it cannot be (a payload that does not
 * match its kind, a recipient deleted meanwhile) or would not be sent (its recipient may no longer
 * see its record): a preview never fails the list it is part of. It is rendered in the recipient's
 * visibility, never the reader's (renderMail has no other): what the mail would say, which is what
 * an admin reading the outbox wants to check. `em` must not be the caller's unit of work (rendering
 * loads managed entities).
 */
async function previewOf(em: EntityManager, row: MailToRender): Promise<MailPreview | null> {
  try {
    const { subject, text } = await renderMail(em, row);
    return { subject, text };
  } catch (error) {
    if (error instanceof MailIntentInvalid || error instanceof MailRecipientMissing || error instanceof MailWithheld) return null;
    throw error;
  }
}

/**
 * The outbox of the viewer's account, for its administrators only (other users get FORBIDDEN,
 * as for every admin-only thing): the mail contents name records and users of the whole account.
 */
export class OutboxService {
  constructor(private readonly ctx: RequestContext) {}

  private requireAdmin(): void {
    if (!this.ctx.viewer.isAdmin) throw new ForbiddenError('Only administrators may read the outbox');
  }

  /** A page of the account's outbox, newest first. A non-admin is refused before the arguments are looked at. */
  async list(filter: OutboxFilter, paging: () => Paging, reads?: ConnectionReads): Promise<Connection<OutboxMessage>> {
    this.requireAdmin();
    const where = conditions(this.ctx.viewer.accountId, filter);
    return new Connection(
      await keysetPage(this.ctx.em, OutboxMessage, { from: '"outbox_messages" o', alias: 'o', where, order: NEWEST_FIRST, paging: paging(), reads }),
    );
  }

  /** Rows by id for node(id:): the account's (the by-id loader applies tenancy), and none for non-admins (null, as for any record the viewer may not see). */
  find(ids: readonly number[]): Promise<Array<OutboxMessage | null>> {
    if (!this.ctx.viewer.isAdmin) return Promise.resolve(ids.map(() => null));
    const loader = this.ctx.loaders.byId(OutboxMessage);
    return Promise.all(ids.map((id) => (isValidId(id) ? loader.load(id) : null)));
  }

  /**
   * The mail of a row as it would be sent now, rendered from the current records. Only rows of the
   * viewer's account are rendered (renderMail reads every record within the row's account), only
   * for an admin; the cost model charges each preview (outbox.resolver.ts).
   */
  preview(message: OutboxMessage): Promise<MailPreview | null> {
    if (!this.ctx.viewer.isAdmin || message.account.id !== this.ctx.viewer.accountId) return Promise.resolve(null);
    return this.ctx.loaders.memo('outbox:renderer', () => new Renderer(this.ctx.em)).render(mailToRender(message));
  }
}

/**
 * Renders the previews of one request one after the other, on an EntityManager of their own:
 * rendering loads managed entities, which must not join the request's unit of work, and a page
 * of previews (a few statements each) then holds one connection of the pool, not one per row.
 */
class Renderer {
  private readonly em: EntityManager;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(em: EntityManager) {
    this.em = em.fork({ clear: true });
  }

  render(row: MailToRender): Promise<MailPreview | null> {
    const next = this.tail.then(() => previewOf(this.em, row));
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/** One row of `outbox:list` (the CLI): snake_case, as the CLI's other answers. */
export interface OutboxListRow {
  readonly id: number;
  readonly kind: MailKind;
  readonly status: OutboxStatus;
  readonly recipient_email: string;
  /** Where the mail goes instead of the recipient's address (a webhook endpoint's failure email); null: to recipient_email. */
  readonly recipient_address: string | null;
  /** The subject line as rendered now; null when the row cannot be rendered. */
  readonly subject: string | null;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly created_at: string;
  readonly sent_at: string | null;
}

export { OUTBOX_LIST_DEFAULT, OUTBOX_LIST_MAX };

interface ListedRow {
  id: number;
  account_id: number;
  recipient_id: number;
  recipient_address: string | null;
  kind: MailKind;
  subject_type: string;
  subject_id: number;
  payload: Record<string, unknown> | string;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  recipient_email: string;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/**
 * The CLI's view of one account's outbox (operators, no viewer): the newest `limit` rows, with
 * the recipient's address and the subject line rendered now. `em` is used for reads only.
 */
export async function listOutbox(
  em: EntityManager,
  accountId: number,
  options: { readonly status?: OutboxStatus | null; readonly limit?: number } = {},
): Promise<OutboxListRow[]> {
  const limit = options.limit ?? OUTBOX_LIST_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > OUTBOX_LIST_MAX)
    throw ValidationFailed.one('limit', 'OUT_OF_RANGE', `must be between 1 and ${OUTBOX_LIST_MAX}`);
  const conn = em.getConnection();
  const [account] = await conn.execute<Array<{ id: number }>>('select id from "accounts" where id = ?', [accountId], 'all');
  if (!account) throw ValidationFailed.one('account', 'NOT_FOUND', 'does not exist');
  const where = conditions(accountId, { status: options.status });
  const rows = await conn.execute<ListedRow[]>(
    `select o.id, o.account_id, o.recipient_id, o.recipient_address, o.kind, o.subject_type, o.subject_id, o.payload, o.status, o.attempts, o.last_error, o.created_at, o.sent_at, u.email as recipient_email
       from "outbox_messages" o join "users" u on u.id = o.recipient_id and u.account_id = o.account_id
      where ${where.sql} order by ${NEWEST_FIRST.map((k) => `${k.sql} ${k.desc ? 'desc' : 'asc'}`).join(', ')} limit ?`,
    [...where.params, limit],
    'all',
  );
  const renderer = em.fork({ clear: true });
  const out: OutboxListRow[] = [];
  for (const row of rows) {
    const preview = await previewOf(renderer, {
      id: row.id,
      accountId: row.account_id,
      recipientId: row.recipient_id,
      recipientAddress: row.recipient_address,
      kind: row.kind,
      subjectType: row.subject_type,
      subjectId: row.subject_id,
      payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
      createdAt: new Date(row.created_at),
    });
    // The identity map would grow with every row rendered: each row is rendered on its own.
    renderer.clear();
    out.push({
      id: row.id,
      kind: row.kind,
      status: row.status,
      recipient_email: row.recipient_email,
      recipient_address: row.recipient_address,
      subject: preview?.subject ?? null,
      attempts: row.attempts,
      last_error: row.last_error,
      created_at: iso(row.created_at),
      sent_at: row.sent_at === null ? null : iso(row.sent_at),
    });
  }
  return out;
}
