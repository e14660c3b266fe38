import type { EntityManager } from '@mikro-orm/postgresql';
import { findVisible, fromOf, type Records } from '../common/resource';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { Comment } from '../notes/note.entity';
import { NOTE_RECORDS } from '../notes/note.visibility';
import { PERSON_RECORDS } from '../people/person.visibility';
import { User } from '../users/user.entity';
import { FAILING_DAYS } from '../webhooks/webhook-delivery';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { WEBHOOK_ENDPOINTS } from '../webhooks/webhook-endpoint.service';
import type { MailIntent } from './mail-intent';
import type { OutboxMessage } from './outbox-message.entity';

/** A mail ready for the transport: every string here is final (HTML already escaped). */
export interface RenderedMail {
  readonly to: { readonly name: string; readonly address: string };
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** What rendering reads of an outbox row (an entity, or the row a delivery claimed). */
export type MailToRender = Pick<OutboxMessage, 'id' | 'kind' | 'subjectType' | 'subjectId' | 'payload' | 'createdAt' | 'recipientAddress'> & {
  readonly accountId: number;
  readonly recipientId: number;
};

/** The row's recipient is gone (users cascade to their outbox rows, so only between read and render). */
export class MailRecipientMissing extends Error {}

/** A row whose payload does not match its kind: a bug or a hand-edited row; never retried. */
export class MailIntentInvalid extends Error {}

/**
 * The record a mail is about exists but its recipient may not see it now (reassigned since, their
 * rights narrowed), or a mail that is only about that record finds it deleted (a disabled webhook
 * endpoint): nothing may or need be said, so the mail is not sent (never retried). The message is
 * stored as the row's reason: it names the kind of record, never the record.
 */
export class MailWithheld extends Error {}

/**
 * The recipient as the API knows them: every record a mail names is read through their visibility
 * now (their rights, or the record's owner, may have changed since the row was written), with the
 * statement the API answers them with (findVisible: the account, then the resource's rule).
 */
class RecipientView {
  /** The recipient as a viewer: what findVisible reads of one (their account and their rights now). */
  private readonly scope: Parameters<typeof findVisible>[0];

  constructor(
    private readonly em: EntityManager,
    private readonly accountId: number,
    recipient: User,
  ) {
    this.scope = { em, viewer: { userId: recipient.id, isAdmin: recipient.isAdmin, visibility: recipient.visibility, accountId } };
  }

  /** The record when the recipient may see it; null when it is missing or hidden (answered alike, as the API does). */
  see<T extends { id: number }>(def: Records<T>, id: number | null | undefined): Promise<T | null> {
    return id == null ? Promise.resolve(null) : findVisible(this.scope, def, id);
  }

  /**
   * The record a mail is about: null once deleted (a short mail says so, naming nothing); throws
   * MailWithheld when it exists but is hidden from the recipient, as nothing then remains to say.
   */
  async subject<T extends { id: number }>(def: Records<T>, id: number, what: string): Promise<T | null> {
    const record = await this.see(def, id);
    if (record) return record;
    const [exists] = await this.em.execute(
      `select 1 from ${fromOf({ em: this.em }, def)} where ${def.alias}.id = ? and ${def.alias}.account_id = ?`,
      [id, this.accountId],
      'all',
    );
    if (exists) throw new MailWithheld(`not sent: its recipient may no longer see the ${what} it is about`);
    return null;
  }
}

export function mailToRender(message: OutboxMessage): MailToRender {
  return {
    id: message.id,
    kind: message.kind,
    subjectType: message.subjectType,
    subjectId: message.subjectId,
    payload: message.payload,
    createdAt: message.createdAt,
    recipientAddress: message.recipientAddress,
    accountId: message.account.id,
    recipientId: message.recipient.id,
  };
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Names are user input: a header must stay one line, and a subject stays readable. */
const oneLine = (s: string, max = 200): string => {
  const flat = s
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** A note without a title is named by its first words. */
const firstWords = (s: string, words = 8): string => {
  const all = oneLine(s, 10_000).split(' ');
  return all.length > words ? `${all.slice(0, words).join(' ')}…` : all.join(' ');
};

/**
 * "Nov 28, 2026, 14:05 (Europe/Berlin)": the zone is spelled out, as abbreviations are ambiguous. A
 * zone the runtime does not know (stored before validation existed) falls back to UTC.
 */
export function formatInZone(at: Date, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  try {
    return `${new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(at)} (${timeZone})`;
  } catch {
    return `${new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(at)} (UTC)`;
  }
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isInstant = (v: unknown): v is string => typeof v === 'string' && Number.isFinite(Date.parse(v));
const isStatus = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 999;

/** The stored row back to its typed intent; the compiler then checks each kind is handled. */
function intentOf(message: MailToRender): MailIntent {
  const { kind, subjectType: type, subjectId: id, payload } = message;
  const byUserId = payload.byUserId;
  if (!isId(id)) throw new MailIntentInvalid(`outbox row ${message.id}: payload or subject is not of kind ${kind}`);
  switch (kind) {
    case 'person_assignment':
    case 'person_reassignment':
      if (type === 'Person' && isId(byUserId)) return { kind, subject: { type, id }, payload: { byUserId } };
      break;
    case 'company_reassignment':
      if (type === 'Company' && isId(byUserId)) return { kind, subject: { type, id }, payload: { byUserId } };
      break;
    case 'note_comment':
      if (type === 'Note' && isId(byUserId) && isId(payload.commentId))
        return { kind, subject: { type, id }, payload: { byUserId, commentId: payload.commentId } };
      break;
    case 'webhook_disabled': {
      const { reason, failingSince, lastStatusCode, lastError } = payload;
      if (type === 'WebhookEndpoint' && (reason === 'gone' || reason === 'failing'))
        return {
          kind,
          subject: { type, id },
          payload: {
            reason,
            failingSince: isInstant(failingSince) ? failingSince : null,
            lastStatusCode: isStatus(lastStatusCode) ? lastStatusCode : null,
            lastError: typeof lastError === 'string' && lastError.trim() !== '' ? oneLine(lastError) : null,
          },
        };
      break;
    }
    default:
      return unhandled(kind);
  }
  throw new MailIntentInvalid(`outbox row ${message.id}: payload or subject is not of kind ${kind}`);
}

/** Compile-time exhaustiveness: a new MailIntent kind without a case here does not type-check. */
function unhandled(kind: never): never {
  throw new MailIntentInvalid(`no template for mail kind ${String(kind)}`);
}

/** One paragraph of a mail, written once for both bodies: text parts, or values to escape in HTML. */
type Part = string | { readonly value: string; readonly strong?: boolean };
type Paragraph = readonly Part[];

interface Body {
  readonly subject: string;
  readonly paragraphs: readonly Paragraph[];
  /** Quoted user text (a comment), shown as is in text and escaped in HTML. */
  readonly quote?: string;
  /** Why this mail came (the last line); the default suits a mail to a user about their work. */
  readonly footer?: string;
}

const v = (value: string): Part => ({ value, strong: true });

function assemble(greeting: string, body: Body): { subject: string; text: string; html: string } {
  const all: Paragraph[] = [[`Hello `, { value: greeting }, `,`], ...body.paragraphs];
  const asText = (p: Paragraph) => p.map((part) => (typeof part === 'string' ? part : part.value)).join('');
  const asHtml = (p: Paragraph) =>
    p
      .map((part) => (typeof part === 'string' ? escapeHtml(part) : part.strong ? `<strong>${escapeHtml(part.value)}</strong>` : escapeHtml(part.value)))
      .join('');
  const quoteText =
    body.quote === undefined
      ? []
      : [
          body.quote
            .split(/\r?\n/)
            .map((l) => `> ${l}`)
            .join('\n'),
        ];
  const quoteHtml =
    body.quote === undefined
      ? []
      : [`<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc">${escapeHtml(body.quote).replace(/\r?\n/g, '<br>')}</blockquote>`];
  const footer = body.footer ?? 'You receive this mail because of your work in the CRM.';
  const [hello, first, ...rest] = all;
  const text = [asText(hello!), ...(first ? [asText(first)] : []), ...quoteText, ...rest.map(asText), '--', footer].join('\n\n') + '\n';
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><title>' + escapeHtml(body.subject) + '</title></head><body style="font-family:sans-serif">',
    `<p>${asHtml(hello!)}</p>`,
    ...(first ? [`<p>${asHtml(first)}</p>`] : []),
    ...quoteHtml,
    ...rest.map((p) => `<p>${asHtml(p)}</p>`),
    `<p style="color:#777;font-size:smaller">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(body.subject), text, html };
}

const userName = (user: User | null): string => (user ? oneLine(user.fullName) || oneLine(user.email) : 'A former user');

/**
 * A webhook URL as a mail may show it: scheme, host and port, the path elided. Never the path, the
 * query or the fragment (a receiver's token often rides there: Slack-style URLs keep it in the
 * path), nor credentials (refused at create anyway). The name and id say which endpoint it is.
 */
function urlShown(raw: string): string {
  try {
    const url = new URL(raw);
    return oneLine(url.pathname === '/' ? url.origin : `${url.origin}/…`, 300);
  } catch {
    return 'an address that is no longer a URL';
  }
}

/**
 * The mail an outbox row stands for, addressed to its recipient, in the recipient's time zone (their
 * own, else the account's) and in the recipient's visibility: the one rendering path, used by the
 * delivery and by the previews (GraphQL and the CLI), so an admin's preview shows what the recipient
 * would get, not what the admin sees. It names the record and who made the change, reads only the
 * fields it shows (never a user's key hash: it is lazy and hidden, and nothing here asks for it), and
 * escapes every user-written value in the HTML.
 *
 * Every record is read as the API would answer the recipient now (RecipientView): a related record
 * hidden from them (a person's company, a note's deal, person or company) is not named; a subject
 * record hidden from them throws MailWithheld (not sent). A record deleted since the row was written
 * still gets a (short) mail saying so, naming nothing: the row was owed when its change committed,
 * and the recipient learns that something was handed to them and is gone.
 */
export async function renderMail(em: EntityManager, message: OutboxMessage | MailToRender): Promise<RenderedMail> {
  const row = 'recipientId' in message ? message : mailToRender(message);
  const intent = intentOf(row);
  const account = row.accountId;
  const recipient = await em.findOne(User, { id: row.recipientId, account }, { populate: ['account'] });
  if (!recipient) throw new MailRecipientMissing(`outbox row ${row.id}: its recipient is gone`);
  const view = new RecipientView(em, account, recipient);
  /** Where the mail goes instead of the recipient's own address (a webhook endpoint's failure email). */
  const elsewhere = row.recipientAddress?.trim() || null;
  const by = 'byUserId' in intent.payload ? await em.findOne(User, { id: intent.payload.byUserId, account }) : null;
  const zone = recipient.timeZone || recipient.account.timeZone || 'UTC';
  const when = (at: Date) => formatInZone(at, zone);
  const actor = userName(by);
  const changedAt = when(row.createdAt);

  let body: Body;
  switch (intent.kind) {
    case 'person_assignment':
    case 'person_reassignment': {
      const person = await view.subject(PERSON_RECORDS, intent.subject.id, 'person');
      const verb = intent.kind === 'person_assignment' ? 'assigned' : 'reassigned';
      if (!person) {
        body = {
          subject: `A person ${verb} to you has been deleted`,
          paragraphs: [[v(actor), ` ${verb} a person to you on ${changedAt}, but it has since been deleted.`]],
        };
      } else {
        const name = oneLine(person.fullName) || `Person #${person.id}`;
        const company = await view.see(COMPANY_RECORDS, person.company?.id);
        body = {
          subject: `${actor} ${verb} ${name} to you`,
          paragraphs: [
            [v(actor), ` ${verb} the person `, v(name), ...(company ? [' (', { value: oneLine(company.name) }, ')'] : []), ` to you on ${changedAt}.`],
            [`You are now their owner in the CRM (person #${person.id}).`],
          ],
        };
      }
      break;
    }
    case 'company_reassignment': {
      const company = await view.subject(COMPANY_RECORDS, intent.subject.id, 'company');
      if (!company) {
        body = {
          subject: 'A company reassigned to you has been deleted',
          paragraphs: [[v(actor), ` reassigned a company to you on ${changedAt}, but it has since been deleted.`]],
        };
      } else {
        const name = oneLine(company.name) || `Company #${company.id}`;
        body = {
          subject: `${actor} reassigned ${name} to you`,
          paragraphs: [
            [v(actor), ' reassigned the company ', v(name), ` to you on ${changedAt}.`],
            [`You are now its owner in the CRM (company #${company.id}).`],
          ],
        };
      }
      break;
    }
    case 'note_comment': {
      const note = await view.subject(NOTE_RECORDS, intent.subject.id, 'note');
      if (!note) {
        body = {
          subject: 'A note you follow has been deleted',
          paragraphs: [[v(actor), ` commented on a note you follow on ${changedAt}, but the note has since been deleted.`]],
        };
        break;
      }
      // A comment is visible when its note is (COMMENTS' rule): the note was just judged.
      const comment = await em.findOne(Comment, { id: intent.payload.commentId, note: note.id, account });
      const title = note.title && oneLine(note.title) ? oneLine(note.title) : firstWords(note.content) || `Note #${note.id}`;
      // Only the records the recipient sees (the note is visible through at least one of them);
      // one after the other, so a page of previews holds one connection (outbox.service.ts Renderer).
      const deal = await view.see(DEAL_RECORDS, note.deal?.id);
      const person = await view.see(PERSON_RECORDS, note.person?.id);
      const company = await view.see(COMPANY_RECORDS, note.company?.id);
      const about: Part[] = [];
      const add = (label: string, name: string | undefined) => {
        if (!name) return;
        about.push(about.length === 0 ? ` about ${label} ` : ` and ${label} `, { value: name });
      };
      add('the deal', deal ? oneLine(deal.name) : undefined);
      add('the person', person ? oneLine(person.fullName) : undefined);
      add('the company', company ? oneLine(company.name) : undefined);
      body = {
        subject: `${actor} commented on "${title}"`,
        paragraphs: comment
          ? [[v(actor), ' commented on the note ', v(title), ...about, ` on ${when(comment.createdAt)}:`]]
          : [[v(actor), ' commented on the note ', v(title), ...about, ` on ${changedAt}, but the comment has since been deleted.`]],
        quote: comment?.comment,
      };
      break;
    }
    case 'webhook_disabled': {
      // To the endpoint's failure email, an address an administrator chose for this very mail: the
      // endpoint is read as it is. To the owner's own address: as the owner may see it now
      // (administrators only). Deleted since: there is nothing left to resume, so nothing is sent.
      const endpoint =
        elsewhere !== null
          ? await em.findOne(WebhookEndpoint, { id: intent.subject.id, account })
          : await view.subject(WEBHOOK_ENDPOINTS, intent.subject.id, 'webhook endpoint');
      if (!endpoint) throw new MailWithheld('not sent: the webhook endpoint it is about has been deleted');
      const name = oneLine(endpoint.name) || `Webhook endpoint #${endpoint.id}`;
      const { reason, failingSince, lastError } = intent.payload;
      const why: Paragraph =
        reason === 'gone'
          ? ['Its URL answered 410 Gone, which asks for no more deliveries.']
          : [
              `Its deliveries had been failing for more than ${FAILING_DAYS} days`,
              ...(failingSince ? [`, since ${when(new Date(failingSince))}`] : []),
              ...(lastError ? ['; the last attempt: ', { value: lastError }] : []),
              '.',
            ];
      const id = endpoint.id;
      body = {
        subject: `Webhook endpoint disabled: ${name}`,
        paragraphs: [
          ['The webhook endpoint ', v(name), ' (', { value: urlShown(endpoint.url) }, `, #${id}) was disabled on ${changedAt}.`],
          why,
          [
            'Nothing is sent to it while it is disabled. The changes it has not received are kept as long as the CRM keeps its change records, so none is lost if it is enabled again in time.',
          ],
          [
            `To resume: fix the receiver, then enable the endpoint again, over GraphQL with updateWebhookEndpoint(id: ${id}, input: { enabled: true }) or over the v3 API with PUT /api/v3/admin/webhooks/${id}.json and {"webhook": {"is_activated": true}}. Its pending deliveries are then sent, oldest first; replayWebhookEndpoint(id: ${id}, since: ...) sends again those made since a time, the failed ones included.`,
          ],
        ],
        footer:
          elsewhere !== null
            ? 'You receive this mail because this address is the failure email of the webhook endpoint in the CRM.'
            : 'You receive this mail because you own the webhook endpoint in the CRM.',
      };
      break;
    }
    default:
      return unhandled(intent);
  }
  // Another address than the recipient's own is greeted and addressed by no name: it may not be theirs.
  return {
    to: elsewhere === null ? { name: oneLine(recipient.fullName), address: recipient.email } : { name: '', address: elsewhere },
    ...assemble(elsewhere === null ? oneLine(recipient.firstName ?? '') || oneLine(recipient.fullName) || 'there' : 'there', body),
  };
}
