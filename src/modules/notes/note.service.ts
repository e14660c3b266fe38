import { Issues, NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { SettledLoader } from '../../context/loaders';
import { mutation } from '../../context/transaction';
import { seesEverything, type Seer } from '../../context/visibility';
import type { ConnectionReads, Paging } from '../../db/keyset';
import { storableInstant } from '../../db/sql';
import type { Connection } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';
import { blank } from '../../kit/assign';
import { withoutNul } from '../common/input';
import { findForWrite, findVisible, fromOf, listConnection, scopeOf, setRelation, sharesOf } from '../common/resource';
import { Company } from '../companies/company.entity';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { ListItemService } from '../lists/list-item.service';
import { recordMail } from '../outbox/outbox.service';
import { Person } from '../people/person.entity';
import { PERSON_RECORDS } from '../people/person.visibility';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { Comment, Note } from './note.entity';
import { COMMENT_RECORDS, NOTE_RECORDS } from './note.visibility';
import { COMMENT_FIELDS, NOTE_FIELDS, type CommentInput, type NoteInput } from './note.fields';

type NoteFilter = InstanceType<typeof NOTE_FIELDS.Filter>;
type NoteOrder = InstanceType<typeof NOTE_FIELDS.Order>;

const NOTE_WRITES = NOTE_FIELDS.writes(['content', 'dealId', 'personId', 'companyId', 'userId', 'noteCategoryId', 'notifyUserIds', 'isSentMessage']);
const COMMENT_WRITES = COMMENT_FIELDS.writes(['noteId', 'comment', 'userId', 'editedByUserId', 'updatedAt']);

/** Which of a batch of note ids the viewer may see: one statement per batch (node(), writes, comments). */
export function visibleNoteIds(ctx: RequestContext): SettledLoader<boolean> {
  return ctx.loaders.memo(
    'notes:visible',
    () =>
      new SettledLoader<boolean>(async (ids) => {
        const where = scopeOf(ctx, NOTE_RECORDS).add('n.id = any(?::int[])', `{${ids.join(',')}}`);
        const rows = await ctx.em.execute<Array<{ id: number }>>(`select n.id from ${fromOf(ctx, NOTE_RECORDS)} where ${where.sql}`, where.params, 'all');
        const found = new Set(rows.map((r) => Number(r.id)));
        return ids.map((id) => found.has(id));
      }),
  );
}

/** Notes by id for node(id:): the by-id loader (tenancy), then the visibility statement. */
export async function findVisibleNotes(ctx: RequestContext, ids: readonly number[]): Promise<Array<Note | null>> {
  const valid = ids.filter(isValidId);
  const [rows, visible] = await Promise.all([
    Promise.all(ids.map((id) => (isValidId(id) ? ctx.loaders.byId(Note).load(id) : null))),
    Promise.all(valid.map((id) => visibleNoteIds(ctx).load(id))),
  ]);
  const seen = new Map(valid.map((id, i) => [id, visible[i]]));
  return rows.map((row) => (row && seen.get(row.id) ? row : null));
}

export async function findVisibleComments(ctx: RequestContext, ids: readonly number[]): Promise<Array<Comment | null>> {
  const rows = await Promise.all(ids.map((id) => (isValidId(id) ? ctx.loaders.byId(Comment).load(id) : null)));
  const visible = await Promise.all(rows.map((row) => (row ? visibleNoteIds(ctx).load(row.note.id) : false)));
  return rows.map((row, i) => (row && visible[i] ? row : null));
}

/** What possibleNotifyUserIds needs of a note: its associated records (and the deal's shares). */
interface Associated {
  readonly deal: Deal | null;
  readonly dealShares: readonly number[];
  readonly person: Person | null;
  readonly company: Company | null;
}

function settledAssociated(ctx: RequestContext, note: Note): Associated | undefined {
  const deal = note.deal ? ctx.loaders.byId(Deal).settled(note.deal.id) : null;
  const dealShares = note.deal ? sharesOf(ctx, DEAL_RECORDS).settled(note.deal.id) : [];
  const person = note.person ? ctx.loaders.byId(Person).settled(note.person.id) : null;
  const company = note.company ? ctx.loaders.byId(Company).settled(note.company.id) : null;
  if (deal === undefined || dealShares === undefined || person === undefined || company === undefined) return undefined;
  return { deal, dealShares, person, company };
}

async function loadAssociated(ctx: RequestContext, note: Note): Promise<Associated> {
  const [deal, dealShares, person, company] = await Promise.all([
    note.deal ? ctx.loaders.byId(Deal).load(note.deal.id) : null,
    note.deal ? sharesOf(ctx, DEAL_RECORDS).load(note.deal.id) : [],
    note.person ? ctx.loaders.byId(Person).load(note.person.id) : null,
    note.company ? ctx.loaders.byId(Company).load(note.company.id) : null,
  ]);
  return { deal, dealShares, person, company };
}

function whoCanSee(users: Iterable<User>, a: Associated): number[] {
  const ids: number[] = [];
  for (const u of users) {
    const seer: Seer = { userId: u.id, isAdmin: u.isAdmin, visibility: u.visibility };
    if (
      seesEverything(seer)
        ? a.deal || a.person || a.company
        : (a.deal && DEAL_RECORDS.visibility.canSee(seer, a.deal, a.dealShares)) ||
          (a.person && PERSON_RECORDS.visibility.canSee(seer, a.person)) ||
          (a.company && COMPANY_RECORDS.visibility.canSee(seer, a.company))
    )
      ids.push(u.id);
  }
  return ids;
}

/**
 * v3 possible_notify_user_ids: the users of the account who can see at least one of the note's
 * associated records (so the note). Synchronous once a page preloaded users, records and shares.
 */
export function possibleNotifyUserIds(ctx: RequestContext, note: Note): number[] | Promise<number[]> {
  const users = accountUsers(ctx).all.settled();
  const associated = settledAssociated(ctx, note);
  if (users && associated) return whoCanSee(users.values(), associated);
  return Promise.all([accountUsers(ctx).all.load(), loadAssociated(ctx, note)]).then(([all, a]) => whoCanSee(all.values(), a));
}

const isEmailCategory = (category: ListItem | null) => category !== null && category.name.trim().toLowerCase() === 'email';

/** Notes (v3 activities): visible through their associated records on every read and write (v3 §2.2, §4.2). */
export class NoteService {
  constructor(private readonly ctx: RequestContext) {}

  list(
    filter: NoteFilter | null | undefined,
    orderBy: readonly NoteOrder[] | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
  ): Promise<Connection<Note>> {
    const condition = NOTE_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, NOTE_RECORDS).add(condition.sql, ...condition.params);
    return listConnection(this.ctx, NOTE_RECORDS, where, NOTE_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  create(input: NoteInput): Promise<Note> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      const note = em.create(Note, { account: this.ctx.viewer.accountId, content: '', user: this.ctx.viewer.userId }, { persist: false });
      await this.apply(note, input, issues, true);
      issues.throwIfAny();
      em.persist(note);
      await em.flush();
      return note;
    });
  }

  update(id: number, input: NoteInput): Promise<Note> {
    return mutation(this.ctx, async (em) => {
      const note = await loadNoteForWrite(this.ctx, id);
      const issues = new Issues();
      await this.apply(note, input, issues, false);
      issues.throwIfAny();
      note.updatedAt = new Date();
      await em.flush();
      return note;
    });
  }

  delete(id: number): Promise<number> {
    return mutation(this.ctx, async (em) => {
      em.remove(await loadNoteForWrite(this.ctx, id));
      return id;
    });
  }

  private async apply(note: Note, input: NoteInput, issues: Issues, isNew: boolean): Promise<void> {
    const em = this.ctx.em;
    NOTE_WRITES.assign(em, note, input, issues, isNew);
    if (input.content !== undefined || isNew) {
      const content = typeof input.content === 'string' ? withoutNul(input.content) : null;
      if (content === null || blank(content)) issues.blank('content');
      else note.content = content;
    }
    // Each association must be a record the viewer may see: a hidden one is answered like a missing one.
    await setRelation(this.ctx, note, 'deal', Deal, input.dealId, (id) => findVisible(this.ctx, DEAL_RECORDS, id), issues, 'dealId');
    await setRelation(this.ctx, note, 'person', Person, input.personId, (id) => findVisible(this.ctx, PERSON_RECORDS, id), issues, 'personId');
    await setRelation(this.ctx, note, 'company', Company, input.companyId, (id) => findVisible(this.ctx, COMPANY_RECORDS, id), issues, 'companyId');
    if (!note.deal && !note.person && !note.company && issues.empty)
      issues.add('base', 'BLANK', 'needs a deal, a person or a company (dealId, personId or companyId)');
    await setRelation(this.ctx, note, 'user', User, input.userId, (id) => accountUsers(this.ctx).load(id), issues, 'userId');
    await setRelation(
      this.ctx,
      note,
      'noteCategory',
      ListItem,
      input.noteCategoryId,
      (id) => new ListItemService(this.ctx).find(id, ListKind.NOTE_CATEGORY),
      issues,
      'noteCategoryId',
    );

    // is_sent_message: only for the Email category (sent unless said otherwise); null for any other.
    const category = note.noteCategory ? await this.ctx.loaders.byId(ListItem).load(note.noteCategory.id) : null;
    if (!isEmailCategory(category)) note.isSentMessage = null;
    else if (input.isSentMessage !== undefined && input.isSentMessage !== null) note.isSentMessage = input.isSentMessage;
    else if (note.isSentMessage === null) note.isSentMessage = true;

    if (input.notifyUserIds !== undefined && issues.empty) {
      const wanted = [...new Set((input.notifyUserIds ?? []).filter((id) => Number.isInteger(id)))];
      if (wanted.length > 0) {
        const possible = new Set(await possibleNotifyUserIds(this.ctx, note));
        const refused = wanted.filter((id) => !possible.has(id));
        if (refused.length > 0)
          issues.invalid('notifyUserIds', `may only name users who can see the note (possible_notify_user_ids); not ${refused.join(', ')}`);
      }
      note.notifyUserIds = wanted;
    }
  }
}

/** The managed note, when it exists in the account and the viewer may see it; NotFound otherwise. */
export async function loadNoteForWrite(ctx: RequestContext, id: number | null | undefined): Promise<Note> {
  if (id == null || !isValidId(id)) throw new NotFoundError('Note', id ?? 0);
  return findForWrite(ctx, 'Note', Note, id, async (options) => {
    const note = await ctx.em.findOne(Note, { id, account: ctx.viewer.accountId }, options);
    return note && (await visibleNoteIds(ctx).load(id)) ? note : null;
  });
}

/** Comments (v3 §2.3): visible when their note is; a new one mails the note's notify users (v3 §6). */
export class CommentService {
  constructor(private readonly ctx: RequestContext) {}

  /** One comment; with `noteId`, null unless it is on that note (v3 /notes/:note_id/comments/:id). */
  async get(id: number, noteId?: number | null): Promise<Comment | null> {
    const comment = await findVisible(this.ctx, COMMENT_RECORDS, id);
    return comment && (noteId == null || comment.note.id === noteId) ? comment : null;
  }

  create(input: CommentInput): Promise<Comment> {
    return mutation(this.ctx, async (em) => {
      // v3 POST /notes/:note_id/comments: a missing or hidden note is a 404 (NOT_FOUND on the record).
      const note = await loadNoteForWrite(this.ctx, input.noteId);
      const issues = new Issues();
      const comment = em.create(Comment, { account: this.ctx.viewer.accountId, note, comment: '', user: this.ctx.viewer.userId }, { persist: false });
      await this.apply(comment, input, issues, true);
      issues.throwIfAny();
      // Adding a comment is a change of the note (v3 activity_modified finds it).
      note.updatedAt = new Date();
      em.persist(comment);
      await em.flush();
      await this.notify(note, comment);
      await em.flush();
      return comment;
    });
  }

  update(id: number, input: CommentInput, noteId?: number | null): Promise<Comment> {
    return mutation(this.ctx, async (em) => {
      const comment = await this.loadForWrite(id, noteId);
      const issues = new Issues();
      await this.apply(comment, input, issues, false);
      issues.throwIfAny();
      if (input.updatedAt == null) comment.updatedAt = new Date();
      await em.flush();
      return comment;
    });
  }

  delete(id: number, noteId?: number | null): Promise<number> {
    return mutation(this.ctx, async (em) => {
      em.remove(await this.loadForWrite(id, noteId));
      return id;
    });
  }

  private loadForWrite(id: number, noteId?: number | null): Promise<Comment> {
    return findForWrite(this.ctx, 'Comment', Comment, id, async (options) => {
      const comment = await this.ctx.em.findOne(Comment, { id, account: this.ctx.viewer.accountId }, options);
      return comment && (noteId == null || comment.note.id === noteId) && (await visibleNoteIds(this.ctx).load(comment.note.id)) ? comment : null;
    });
  }

  private async apply(comment: Comment, input: CommentInput, issues: Issues, isNew: boolean): Promise<void> {
    COMMENT_WRITES.assign(this.ctx.em, comment, input, issues, isNew);
    if (input.comment !== undefined || isNew) {
      const text = typeof input.comment === 'string' ? withoutNul(input.comment) : null;
      if (text === null || blank(text)) issues.blank('comment');
      else comment.comment = text;
    }
    const users = accountUsers(this.ctx);
    await setRelation(this.ctx, comment, 'user', User, input.userId, (id) => users.load(id), issues, 'userId');
    if (!isNew) await setRelation(this.ctx, comment, 'editedBy', User, input.editedByUserId, (id) => users.load(id), issues, 'editedByUserId');
    if (input.updatedAt != null) {
      if (storableInstant(input.updatedAt)) comment.updatedAt = input.updatedAt;
      else issues.outOfRange('updatedAt');
    }
  }

  /**
   * v3 §6: one mail per notify user of the note, not the author, in this transaction (outbox);
   * only users who can still see the note (its associations may have changed since they were chosen).
   */
  private async notify(note: Note, comment: Comment): Promise<void> {
    if (note.notifyUserIds.length === 0) return;
    const possible = new Set(await possibleNotifyUserIds(this.ctx, note));
    const author = comment.user?.id ?? this.ctx.viewer.userId;
    for (const userId of new Set(note.notifyUserIds)) {
      if (userId === author || !possible.has(userId)) continue;
      recordMail(this.ctx, userId, {
        kind: 'note_comment',
        subject: { type: 'Note', id: note.id },
        payload: { byUserId: this.ctx.viewer.userId, commentId: comment.id },
      });
    }
  }
}
