import { Arg, Args, Ctx, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { linkedCompany, linkedDeal, linkedPerson } from '../common/linked-records';
import { nestedConnectionResolvers } from '../common/nested-connections';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../graphql/relations';
import { ConnectionArgs, connectionReads } from '../../graphql/connection';
import { Company } from '../companies/company.entity';
import { recordResource } from '../common/record-resource';
import { sharesOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { NOTE_CONDITIONS, NOTE_SORT } from './note.conditions';
import { savedSearches, SavedSearchType } from '../saved-searches/saved-search.apply';
import { Comment, Note } from './note.entity';
import { COMMENT_FIELDS, NOTE_FIELDS, type CommentInput, type NoteInput } from './note.fields';
import { commentsOfNote, notesOf, NOTES_PAGE_SIZE } from './note.loaders';
import { CommentService, findVisibleComments, findVisibleNotes, NoteService, possibleNotifyUserIds } from './note.service';
import { COMMENT_RECORDS, NOTE_RECORDS } from './note.visibility';

type NoteFilter = InstanceType<typeof NOTE_FIELDS.Filter>;
type NoteOrder = InstanceType<typeof NOTE_FIELDS.Order>;
type CommentFilter = InstanceType<typeof COMMENT_FIELDS.Filter>;
type CommentOrder = InstanceType<typeof COMMENT_FIELDS.Order>;

/** What a page of notes reads: one batch per source, then each row's fields answer synchronously. */
const NOTE_RELATIONS: readonly RelationPreload<Note>[] = [
  usersPreload('user', 'possibleNotifyUserIds'),
  { fields: ['deal', 'possibleNotifyUserIds'], source: Deal, ids: (n) => n.deal?.id },
  // The deal's shares (its visibility needs them), keyed by the note's deal.
  { fields: ['deal', 'possibleNotifyUserIds'], perRow: (ctx) => sharesOf(ctx, DEAL_RECORDS), key: (n) => n.deal?.id },
  { fields: ['person', 'possibleNotifyUserIds'], source: Person, ids: (n) => n.person?.id },
  { fields: ['company', 'possibleNotifyUserIds'], source: Company, ids: (n) => n.company?.id },
  { fields: ['noteCategory'], source: ListItem, ids: (n) => n.noteCategory?.id },
];

function preloadNotes(ctx: RequestContext, rows: readonly Note[], info?: GraphQLResolveInfo): Promise<void> {
  return preloadPage(ctx, NOTE_RELATIONS, rows, info);
}

const COMMENT_RELATIONS: readonly RelationPreload<Comment>[] = [usersPreload('user', 'editedBy')];

/**
 * Notes (v3 activities, §2.2, §4.2): the generated list, lookup and mutations, with the service's
 * list, create, update and delete (visible through their deal, person or company, judged in SQL)
 * and saved searches; show is the default.
 */
export const NOTE_RESOURCE = recordResource({
  records: NOTE_RECORDS,
  fields: NOTE_FIELDS,
  singular: 'note',
  plural: 'notes',
  pageSize: NOTES_PAGE_SIZE,
  relations: NOTE_RELATIONS,
  nodes: findVisibleNotes,
  docs: {
    list: 'Notes the viewer may see (those about a deal, person or company they may see). Default order: newest first.',
    delete: 'Deletes a note and its comments. A missing or hidden note is a NOT_FOUND user error.',
  },
  search: savedSearches({ type: SavedSearchType.NOTES, what: 'notes', conditions: NOTE_CONDITIONS, sort: NOTE_SORT, sortTable: 'notes' }),
  steps: {
    list: (ctx, filter, orderBy, paging, reads) => new NoteService(ctx).list(filter, orderBy as never, paging, reads),
    create: (ctx, input) => new NoteService(ctx).create(input as NoteInput),
    update: (ctx, id, input) => new NoteService(ctx).update(id, input as NoteInput),
    delete: (ctx, id) => new NoteService(ctx).delete(id),
  },
});

/**
 * Comments (v3 §2.3): the generated list, lookup and mutations; the lookup, update and delete take
 * the note the comment must be on (`noteId`), and create and update are the service's (the note's
 * notify users are mailed). The list is the default.
 */
export const COMMENT_RESOURCE = recordResource({
  records: COMMENT_RECORDS,
  fields: COMMENT_FIELDS,
  singular: 'comment',
  plural: 'comments',
  pageSize: NOTES_PAGE_SIZE,
  relations: COMMENT_RELATIONS,
  nodes: findVisibleComments,
  docs: {
    list: 'Comments on notes the viewer may see. Default order: oldest first.',
    filter: 'Which comments (e.g. `{noteId: {eq: 12}}`); all of them when absent.',
    show: 'One comment by databaseId; null when it does not exist, the viewer may not see its note, or it is not on `noteId` when given.',
    create: "Adds a comment to a note (and mails the note's notifyUserIds but the author). A missing or hidden note is a NOT_FOUND user error on `id`.",
  },
  within: {
    name: 'noteId',
    type: () => Int,
    docs: {
      show: 'The note it must be on (v3 /notes/:note_id/comments/:id).',
      update: 'The note it must be on; NOT_FOUND otherwise.',
      delete: 'The note it must be on; NOT_FOUND otherwise.',
    },
  },
  steps: {
    get: (ctx, id, noteId?: number | null) => new CommentService(ctx).get(id, noteId),
    create: (ctx, input) => new CommentService(ctx).create(input as CommentInput),
    update: (ctx, id, input, _options, noteId?: number | null) => new CommentService(ctx).update(id, input as CommentInput, noteId),
    delete: (ctx, id, noteId?: number | null) => new CommentService(ctx).delete(id, noteId),
  },
});

/** `NoteConnection` and `CommentConnection`, for the notes of a deal, person or company and the comments of a note. */
const NoteConnection = NOTE_RESOURCE.connection;
const CommentConnection = COMMENT_RESOURCE.connection;

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
    @Arg('filter', () => COMMENT_FIELDS.Filter, { nullable: true, description: 'Which of its comments; all when absent.' }) filter?: CommentFilter,
    @Arg('orderBy', () => [COMMENT_FIELDS.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: CommentOrder[],
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
  filter: NOTE_FIELDS.Filter,
  order: NOTE_FIELDS.Order,
  doc: (parent) => notesArgs(parent).description,
  filterDoc: (parent) => `Which of ${parent === 'person' ? 'their' : 'its'} notes; all when absent.`,
  orderDoc: 'Ordering keys, at most 5; databaseId breaks ties.',
  page: nestedNotes,
});
