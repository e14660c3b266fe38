import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { linkedCompany, linkedDeal, linkedPerson } from '../common/linked-records';
import { nestedConnectionResolvers } from '../common/nested-connections';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { Company } from '../companies/company.entity';
import { sharesOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEALS } from '../deals/deal.visibility';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { SavedSearchType, SEARCH_ID_DOC, withSavedSearch } from '../saved-searches/saved-search.apply';
import { Comment, Note } from './note.entity';
import { COMMENT, NOTE, type CommentInput, type NoteInput } from './note.fields';
import { commentsOfNote, notesOf, NOTES_PAGE_SIZE } from './note.loaders';
import { CommentService, findVisibleComments, findVisibleNotes, NoteService, possibleNotifyUserIds } from './note.service';

type NoteFilter = InstanceType<typeof NOTE.Filter>;
type NoteOrder = InstanceType<typeof NOTE.Order>;
type CommentFilter = InstanceType<typeof COMMENT.Filter>;
type CommentOrder = InstanceType<typeof COMMENT.Order>;

@ObjectType('NoteConnection', { description: 'A page of notes, with cursors.' })
export class NoteConnection extends ConnectionOf(Note, 'Note', 'notes') {}

@ObjectType('CommentConnection', { description: 'A page of comments, with cursors.' })
export class CommentConnection extends ConnectionOf(Comment, 'Comment', 'comments') {}

@ObjectType('CreateNotePayload', { description: 'The result of createNote.' })
class CreateNotePayload extends RecordPayload(Note, 'note', 'The created note') {}
@ObjectType('UpdateNotePayload', { description: 'The result of updateNote.' })
class UpdateNotePayload extends RecordPayload(Note, 'note', 'The note as changed') {}
@ObjectType('DeleteNotePayload', { description: 'The result of deleteNote.' })
class DeleteNotePayload extends DeletePayload {}
@ObjectType('CreateCommentPayload', { description: 'The result of createComment.' })
class CreateCommentPayload extends RecordPayload(Comment, 'comment', 'The created comment') {}
@ObjectType('UpdateCommentPayload', { description: 'The result of updateComment.' })
class UpdateCommentPayload extends RecordPayload(Comment, 'comment', 'The comment as changed') {}
@ObjectType('DeleteCommentPayload', { description: 'The result of deleteComment.' })
class DeleteCommentPayload extends DeletePayload {}

registerNode({ name: 'Note', entity: Note, find: (ctx, ids) => findVisibleNotes(ctx, ids) });
registerNode({ name: 'Comment', entity: Comment, find: (ctx, ids) => findVisibleComments(ctx, ids) });

/** What a page of notes reads: one batch per source, then each row's fields answer synchronously. */
const NOTE_RELATIONS: readonly RelationPreload<Note>[] = [
  usersPreload('user', 'possibleNotifyUserIds'),
  { fields: ['deal', 'possibleNotifyUserIds'], source: Deal, ids: (n) => n.deal?.id },
  // The deal's shares (its visibility needs them), keyed by the note's deal.
  { fields: ['deal', 'possibleNotifyUserIds'], perRow: (ctx) => sharesOf(ctx, DEALS), key: (n) => n.deal?.id },
  { fields: ['person', 'possibleNotifyUserIds'], source: Person, ids: (n) => n.person?.id },
  { fields: ['company', 'possibleNotifyUserIds'], source: Company, ids: (n) => n.company?.id },
  { fields: ['noteCategory'], source: ListItem, ids: (n) => n.noteCategory?.id },
];

function preloadNotes(ctx: RequestContext, rows: readonly Note[], info?: GraphQLResolveInfo): Promise<void> {
  return preloadPage(ctx, NOTE_RELATIONS, rows, info);
}

const COMMENT_RELATIONS: readonly RelationPreload<Comment>[] = [usersPreload('user', 'editedBy')];

@Resolver()
export class NoteResolver {
  @Query(() => NoteConnection, { description: 'Notes the viewer may see (those about a deal, person or company they may see). Default order: newest first.' })
  async notes(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => NOTE.Filter, { nullable: true, description: 'Which notes; all of them when absent.' }) filter?: NoteFilter,
    @Arg('orderBy', () => [NOTE.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: NoteOrder[],
    @Info() info?: GraphQLResolveInfo,
    @Arg('searchId', () => Int, { nullable: true, description: SEARCH_ID_DOC }) searchId?: number | null,
  ): Promise<Connection<Note>> {
    const search = await withSavedSearch(ctx, SavedSearchType.NOTES, searchId, filter, orderBy, info);
    const result = await new NoteService(ctx).list(search.filter, search.orderBy, pagingOf(args, NOTES_PAGE_SIZE), connectionReads(info));
    await preloadNotes(ctx, result.nodes, info);
    return result;
  }

  @Query(() => Note, { nullable: true, description: 'One note by databaseId; null when it does not exist or the viewer may not see it.' })
  note(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The note's databaseId." }) id: number) {
    return new NoteService(ctx).get(id);
  }

  @Mutation(() => CreateNotePayload, { description: 'Creates a note. Problems with the input come back as userErrors, and nothing is created.' })
  createNote(@Ctx() ctx: RequestContext, @Arg('input', () => NOTE.CreateInput, { description: 'The new note.' }) input: NoteInput) {
    return recordPayload('note', () => new NoteService(ctx).create(input));
  }

  @Mutation(() => UpdateNotePayload, { description: 'Changes a note: only the fields given. A missing or hidden note is a NOT_FOUND user error.' })
  updateNote(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The note's databaseId." }) id: number,
    @Arg('input', () => NOTE.UpdateInput, { description: 'The changes.' }) input: NoteInput,
  ) {
    return recordPayload('note', () => new NoteService(ctx).update(id, input));
  }

  @Mutation(() => DeleteNotePayload, { description: 'Deletes a note and its comments. A missing or hidden note is a NOT_FOUND user error.' })
  deleteNote(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The note's databaseId." }) id: number) {
    return deletePayload('Note', () => new NoteService(ctx).delete(id));
  }

  @Query(() => CommentConnection, { description: 'Comments on notes the viewer may see. Default order: oldest first.' })
  async comments(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => COMMENT.Filter, { nullable: true, description: 'Which comments (e.g. `{noteId: {eq: 12}}`); all of them when absent.' })
    filter?: CommentFilter,
    @Arg('orderBy', () => [COMMENT.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: CommentOrder[],
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<Comment>> {
    const result = await new CommentService(ctx).list(filter, orderBy, pagingOf(args, NOTES_PAGE_SIZE), connectionReads(info));
    await preloadPage(ctx, COMMENT_RELATIONS, result.nodes, info);
    return result;
  }

  @Query(() => Comment, {
    nullable: true,
    description: 'One comment by databaseId; null when it does not exist, the viewer may not see its note, or it is not on `noteId` when given.',
  })
  comment(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The comment's databaseId." }) id: number,
    @Arg('noteId', () => Int, { nullable: true, description: 'The note it must be on (v3 /notes/:note_id/comments/:id).' }) noteId?: number | null,
  ) {
    return new CommentService(ctx).get(id, noteId);
  }

  @Mutation(() => CreateCommentPayload, {
    description: "Adds a comment to a note (and mails the note's notifyUserIds but the author). A missing or hidden note is a NOT_FOUND user error on `id`.",
  })
  createComment(@Ctx() ctx: RequestContext, @Arg('input', () => COMMENT.CreateInput, { description: 'The new comment.' }) input: CommentInput) {
    return recordPayload('comment', () => new CommentService(ctx).create(input));
  }

  @Mutation(() => UpdateCommentPayload, { description: 'Changes a comment: only the fields given. A missing or hidden comment is a NOT_FOUND user error.' })
  updateComment(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The comment's databaseId." }) id: number,
    @Arg('input', () => COMMENT.UpdateInput, { description: 'The changes.' }) input: CommentInput,
    @Arg('noteId', () => Int, { nullable: true, description: 'The note it must be on; NOT_FOUND otherwise.' }) noteId?: number | null,
  ) {
    return recordPayload('comment', () => new CommentService(ctx).update(id, input, noteId));
  }

  @Mutation(() => DeleteCommentPayload, { description: 'Deletes a comment. A missing or hidden comment is a NOT_FOUND user error.' })
  deleteComment(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The comment's databaseId." }) id: number,
    @Arg('noteId', () => Int, { nullable: true, description: 'The note it must be on; NOT_FOUND otherwise.' }) noteId?: number | null,
  ) {
    return deletePayload('Comment', () => new CommentService(ctx).delete(id, noteId));
  }
}

/** Every relation of a note through the per-request loaders. */
@Resolver(() => Note)
export class NoteFieldsResolver {
  @FieldResolver(() => User, { nullable: true, description: "The note's owner." })
  user(@Root() note: Note, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, note.user?.id);
  }

  @FieldResolver(() => Deal, {
    nullable: true,
    description: 'The deal the note is about; null when none or when the viewer may not see it (dealId still names it).',
  })
  deal(@Root() note: Note, @Ctx() ctx: RequestContext) {
    return linkedDeal(ctx, note.deal?.id);
  }

  @FieldResolver(() => Person, { nullable: true, description: 'The person the note is about; null when none or when the viewer may not see them.' })
  person(@Root() note: Note, @Ctx() ctx: RequestContext) {
    return linkedPerson(ctx, note.person?.id);
  }

  @FieldResolver(() => Company, { nullable: true, description: 'The company the note is about; null when none or when the viewer may not see it.' })
  company(@Root() note: Note, @Ctx() ctx: RequestContext) {
    return linkedCompany(ctx, note.company?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: "The note's category (an item of the note categories list)." })
  noteCategory(@Root() note: Note, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, note.noteCategory?.id);
  }

  @FieldResolver(() => [Int], {
    description: "databaseIds of the users who can see one of the note's records (so the note): the users notifyUserIds may name.",
  })
  possibleNotifyUserIds(@Root() note: Note, @Ctx() ctx: RequestContext) {
    return possibleNotifyUserIds(ctx, note);
  }

  @FieldResolver(() => Int, { description: 'databaseId of the primary association: the deal, else the person, else the company.' })
  primaryAssociationId(@Root() note: Note): number {
    return (note.deal ?? note.person ?? note.company)!.id;
  }

  @FieldResolver(() => String, { description: 'Type of the primary association: Deal, Person or Company (the deal first, then the person, then the company).' })
  primaryAssociationType(@Root() note: Note): string {
    return note.deal ? 'Deal' : note.person ? 'Person' : 'Company';
  }

  @FieldResolver(() => CommentConnection, { description: "The note's comments. Default order: oldest first." })
  comments(
    @Root() note: Note,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => COMMENT.Filter, { nullable: true, description: 'Which of its comments; all when absent.' }) filter?: CommentFilter,
    @Arg('orderBy', () => [COMMENT.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: CommentOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return commentsOfNote(ctx, note.id, { args, filter, orderBy, reads: connectionReads(info) }).then(async (page) => {
      await preloadPage(ctx, COMMENT_RELATIONS, page.nodes, info);
      return page;
    });
  }
}

@Resolver(() => Comment)
export class CommentFieldsResolver {
  @FieldResolver(() => Note, { description: 'The note the comment is on.' })
  note(@Root() comment: Comment, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Note, comment.note.id);
  }

  @FieldResolver(() => User, { nullable: true, description: "The comment's author." })
  user(@Root() comment: Comment, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, comment.user?.id);
  }

  @FieldResolver(() => User, { nullable: true, description: 'The last user who edited the comment; null until edited.' })
  editedBy(@Root() comment: Comment, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, comment.editedBy?.id);
  }
}

const notesArgs = (what: string) => ({ description: `Notes about this ${what} that the viewer may see. Default order: newest first.` });

async function nestedNotes(
  ctx: RequestContext,
  parent: 'deal' | 'person' | 'company',
  id: number,
  args: ConnectionArgs,
  filter: NoteFilter | undefined,
  orderBy: NoteOrder[] | undefined,
  info: GraphQLResolveInfo | undefined,
) {
  const page = await notesOf(ctx, parent, id, { args, filter, orderBy, reads: connectionReads(info) });
  await preloadNotes(ctx, page.nodes, info);
  return page;
}

/** `Deal.notes`, `Person.notes`, `Company.notes`. */
export const NOTE_PARENT_RESOLVERS = nestedConnectionResolvers<NoteFilter, NoteOrder>({
  field: 'notes',
  connection: NoteConnection,
  filter: NOTE.Filter,
  order: NOTE.Order,
  doc: (parent) => notesArgs(parent).description,
  filterDoc: (parent) => `Which of ${parent === 'person' ? 'their' : 'its'} notes; all when absent.`,
  orderDoc: 'Ordering keys, at most 5; databaseId breaks ties.',
  page: nestedNotes,
});
