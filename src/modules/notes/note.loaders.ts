import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { keysetPagesByParent } from '../../db/keyset';
import { Where } from '../../db/sql';
import { Connection, pagingOf } from '../../graphql/connection';
import { fromOf, scopeOf } from '../common/resource';
import type { NestedArgs } from '../../graphql/connection';
import { Comment, Note } from './note.entity';
import { COMMENT_FIELDS, NOTE_FIELDS } from './note.fields';
import { COMMENT_RECORDS, NOTE_RECORDS } from './note.visibility';

type Ids = readonly number[];
type NoteFilter = InstanceType<typeof NOTE_FIELDS.Filter>;
type NoteOrder = InstanceType<typeof NOTE_FIELDS.Order>;
type CommentFilter = InstanceType<typeof COMMENT_FIELDS.Filter>;
type CommentOrder = InstanceType<typeof COMMENT_FIELDS.Order>;

/** Default page of GraphQL note and comment connections (the cost rule's default); v3 asks for 5. */
export const NOTES_PAGE_SIZE = 100;

const PARENT_COLUMN = { deal: 'n.deal_id', person: 'n.person_id', company: 'n.company_id' } as const;

/** Deal.notes, Person.notes, Company.notes: a page of the parent's visible notes, batched across a page of parents. */
export function notesOf(
  ctx: RequestContext,
  parent: keyof typeof PARENT_COLUMN,
  parentId: number,
  nested: NestedArgs<NoteFilter, NoteOrder>,
): Promise<Connection<Note>> {
  const paging = pagingOf(nested.args, NOTES_PAGE_SIZE);
  const order = NOTE_FIELDS.orderKeys(ctx.em, nested.orderBy);
  const condition = NOTE_FIELDS.filterSql(ctx, nested.filter);
  const loader = ctx.loaders.memo(
    `notes-of-${parent}:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null])}`,
    () =>
      new DataLoader(async (ids: Ids) => {
        const where = scopeOf(ctx, NOTE_RECORDS).add(condition.sql, ...condition.params);
        const pages = await keysetPagesByParent(
          ctx.em,
          Note,
          { from: fromOf(ctx, NOTE_RECORDS), alias: 'n', where, order, paging, reads: nested.reads, parentColumn: PARENT_COLUMN[parent] },
          ids,
        );
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(parentId);
}

/**
 * Note.comments: a page of each note's comments, batched across a page of notes. The parent note
 * was judged visible (its comments are then visible): the account scopes them.
 */
export function commentsOfNote(ctx: RequestContext, noteId: number, nested: NestedArgs<CommentFilter, CommentOrder>): Promise<Connection<Comment>> {
  const paging = pagingOf(nested.args, NOTES_PAGE_SIZE);
  const order = COMMENT_FIELDS.orderKeys(ctx.em, nested.orderBy);
  const condition = COMMENT_FIELDS.filterSql(ctx, nested.filter);
  const loader = ctx.loaders.memo(
    `comments-of-note:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null])}`,
    () =>
      new DataLoader(async (ids: Ids) => {
        const where = new Where().add('cm.account_id = ?', ctx.viewer.accountId).add(condition.sql, ...condition.params);
        const pages = await keysetPagesByParent(
          ctx.em,
          Comment,
          { from: fromOf(ctx, COMMENT_RECORDS), alias: 'cm', where, order, paging, reads: nested.reads, parentColumn: 'cm.note_id' },
          ids,
        );
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(noteId);
}
