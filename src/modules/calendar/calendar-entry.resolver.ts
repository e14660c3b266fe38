import { Arg, Args, Ctx, Field, FieldResolver, ID, Info, Int, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { linkedCompany, linkedDeal, linkedPerson } from '../common/linked-records';
import { nestedConnectionResolvers } from '../common/nested-connections';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../graphql/relations';
import { ConnectionArgs, connectionReads } from '../../graphql/connection';
import { Node, toGlobalId } from '../../graphql/node';
import { DeletePayload, payloadOf } from '../../graphql/payload';
import { Company } from '../companies/company.entity';
import { recordResource } from '../common/record-resource';
import { sharesOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { CALENDAR_ENTRY_CONDITIONS, CALENDAR_ENTRY_SORT } from './calendar-entry.conditions';
import { savedSearches, SavedSearchType } from '../saved-searches/saved-search.apply';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { CalendarAssociationType, CalendarEntry } from './calendar-entry.entity';
import { CALENDAR_ENTRY_FIELDS, type CalendarEntryFilter, type CalendarEntryInput, type CalendarEntryOrder } from './calendar-entry.fields';
import { calendarEntriesOf, CALENDAR_ENTRIES_PAGE_SIZE } from './calendar-entry.loaders';
import { CALENDAR_ENTRY_RECORDS, CalendarEntryService, findVisibleEntries, visibleEntryIds } from './calendar-entry.service';
import { withPrecondition } from '../../context/preconditions';
import { EXPECTED_VERSION_DOC } from '../../graphql/versioned';
import { Scope } from '../../graphql/scopes';

@ObjectType('DeleteCalendarEntryPayload', {
  description: 'The result of deleteCalendarEntry: the entry asked for, and every entry the delete removed or deactivated.',
})
class DeleteCalendarEntryPayload extends DeletePayload {
  @Field(() => [ID], {
    description: 'Global ids of every entry removed or deactivated: the entry itself, or its whole series (base first); empty when nothing was deleted.',
  })
  affectedIds!: string[];

  @Field(() => [Int], { description: 'databaseIds of every entry removed or deactivated (what v3 answers), base first; empty when nothing was deleted.' })
  affectedDatabaseIds!: number[];

  @Field({
    description:
      'true when the entry belonged to a recurring series, which was deactivated as a whole (its entries stay, with active false); false when the entry was removed.',
  })
  seriesDeactivated!: boolean;
}

/** The association's deal of a row, for the preload (only when the association is a deal). */
const associated = (kind: CalendarAssociationType) => (e: CalendarEntry) =>
  e.associationKind === kind ? (kind === CalendarAssociationType.DEAL ? e.deal?.id : e.person?.id) : undefined;

/** The base entries of a page: their rows and whether the viewer sees them, keyed by base id. */
const basesOfPage = (ctx: RequestContext) => ({
  loadMany: (baseIds: readonly number[]) => Promise.all([ctx.loaders.byId(CalendarEntry).loadMany(baseIds), visibleEntryIds(ctx).loadMany(baseIds)]),
});

/** What a page of entries reads: one batch per source, then each row's fields answer synchronously. */
const ENTRY_RELATIONS: readonly RelationPreload<CalendarEntry>[] = [
  usersPreload('owner'),
  { fields: ['category'], source: ListItem, ids: (e) => e.category?.id },
  { fields: ['calendarEntryPriority'], source: ListItem, ids: (e) => e.calendarEntryPriority?.id },
  { fields: ['company', 'association'], source: Company, ids: (e) => e.company?.id },
  { fields: ['association'], source: Deal, ids: associated(CalendarAssociationType.DEAL) },
  // The deal's shares (its visibility needs them), keyed by the entry's deal association.
  { fields: ['association'], perRow: (ctx) => sharesOf(ctx, DEAL_RECORDS), key: associated(CalendarAssociationType.DEAL) },
  { fields: ['association'], source: Person, ids: associated(CalendarAssociationType.PERSON) },
  { fields: ['baseEntry'], perRow: basesOfPage, key: (e) => e.baseEntry?.id },
];

function preloadEntries(ctx: RequestContext, rows: readonly CalendarEntry[], info?: GraphQLResolveInfo): Promise<void> {
  return preloadPage(ctx, ENTRY_RELATIONS, rows, info);
}

const ID_ARG = { description: "The calendar entry's databaseId." };
const FILTER_ARG = { nullable: true, description: 'Which calendar entries; all of them (but those of deleted series) when absent.' };
const ORDER_ARG = { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' };

/**
 * Calendar entries (v3 §2.1, §3, §4.1): the generated list, lookup, create and update, with the
 * service's steps (conditions in the viewer's zone, active entries only, recurring series rebuilt)
 * and saved searches. The delete answers what it did to a series, so it is written out below.
 */
export const CALENDAR_ENTRY_RESOURCE = recordResource({
  records: CALENDAR_ENTRY_RECORDS,
  fields: CALENDAR_ENTRY_FIELDS,
  singular: 'calendarEntry',
  plural: 'calendarEntries',
  pageSize: CALENDAR_ENTRIES_PAGE_SIZE,
  relations: ENTRY_RELATIONS,
  nodes: findVisibleEntries,
  offers: ['list', 'show', 'create', 'update'],
  docs: {
    list: 'Calendar entries the viewer may see (their own, and those about or tied to a deal, person or company they may see). Default order: newest first. Entries of deleted series are left out unless the filter asks for them.',
    filter: FILTER_ARG.description,
    show: 'One calendar entry by databaseId; null when it does not exist, the viewer may not see it, or its series was deleted.',
    create:
      'Creates a task or an event; with a recurrence rule, the base entry of a series whose occurrences are stored as entries of their own. Problems with the input come back as userErrors, and nothing is created.',
    update:
      "Changes a calendar entry: only the fields given. Changing the rule or times of a series' base rebuilds the series' future occurrences; an occurrence changes alone. A missing, hidden or inactive entry is a NOT_FOUND user error.",
    id: ID_ARG.description,
    input: 'The new entry.',
    created: 'The created entry (the base entry when it starts a recurring series)',
    changed: 'The entry as changed',
  },
  search: savedSearches({
    type: SavedSearchType.CALENDAR_ENTRIES,
    what: 'calendar entries',
    conditions: CALENDAR_ENTRY_CONDITIONS,
    sort: CALENDAR_ENTRY_SORT,
    sortTable: 'calendar_entries',
  }),
  steps: {
    list: (ctx, filter, orderBy, paging, reads) => new CalendarEntryService(ctx).list(filter, orderBy as never, paging, reads),
    get: (ctx, id) => new CalendarEntryService(ctx).get(id),
    create: (ctx, input) => new CalendarEntryService(ctx).create(input as CalendarEntryInput),
    update: (ctx, id, input) => new CalendarEntryService(ctx).update(id, input as CalendarEntryInput),
  },
});

/** `CalendarEntryConnection`, for a series' occurrences and the entries of a deal, person or company. */
const CalendarEntryConnection = CALENDAR_ENTRY_RESOURCE.connection;

/** The delete: an entry of a series deactivates the whole series, and the payload says which entries. */
@Resolver()
export class CalendarEntryDeleteResolver {
  @Mutation(() => DeleteCalendarEntryPayload, {
    description:
      'Deletes a calendar entry. An entry of a recurring series deactivates the whole series (base and occurrences); any other entry is removed. A missing, hidden or inactive entry is a NOT_FOUND user error.',
  })
  @Scope('calendar_entries:write')
  async deleteCalendarEntry(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, ID_ARG) id: number,
    @Arg('expectedVersion', () => Int, { nullable: true, description: EXPECTED_VERSION_DOC }) expectedVersion?: number | null,
  ): Promise<DeleteCalendarEntryPayload> {
    const { result, userErrors } = await payloadOf(() =>
      withPrecondition(ctx, { type: 'CalendarEntry', id, version: expectedVersion }, () => new CalendarEntryService(ctx).delete(id)),
    );
    return {
      deletedId: result ? toGlobalId('CalendarEntry', result.id) : null,
      deletedDatabaseId: result?.id ?? null,
      affectedIds: (result?.ids ?? []).map((i) => toGlobalId('CalendarEntry', i)),
      affectedDatabaseIds: [...(result?.ids ?? [])],
      seriesDeactivated: result?.seriesDeactivated ?? false,
      userErrors,
    };
  }
}

/** Every relation of a calendar entry through the per-request loaders. */
@Resolver(() => CalendarEntry)
export class CalendarEntryFieldsResolver {
  @FieldResolver(() => User, { nullable: true, description: "The entry's owner." })
  owner(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, entry.owner?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: "The entry's category (an item of the event categories list)." })
  category(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, entry.category?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: "The entry's priority (an item of the calendar entry priorities list)." })
  calendarEntryPriority(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, entry.calendarEntryPriority?.id);
  }

  @FieldResolver(() => Node, {
    nullable: true,
    description:
      'The deal, person or company the entry is about (select it with `... on Deal` and so on); null when none or when the viewer may not see it (associationId still names it).',
  })
  association(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext): unknown {
    switch (entry.associationType) {
      case CalendarAssociationType.DEAL:
        return linkedDeal(ctx, entry.deal?.id);
      case CalendarAssociationType.PERSON:
        return linkedPerson(ctx, entry.person?.id);
      case CalendarAssociationType.COMPANY:
        return linkedCompany(ctx, entry.company?.id);
      default:
        return null;
    }
  }

  @FieldResolver(() => Company, {
    nullable: true,
    description: 'The company the entry is tied to; null when none or when the viewer may not see it (companyId still names it).',
  })
  company(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return linkedCompany(ctx, entry.company?.id);
  }

  @FieldResolver(() => CalendarEntry, {
    nullable: true,
    description:
      'The first (base) entry of the series this entry is an occurrence of; null on a base, on entries of no series, and when the viewer may not see it.',
  })
  baseEntry(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext): CalendarEntry | null | Promise<CalendarEntry | null> {
    const id = entry.baseEntry?.id;
    if (id == null) return null;
    const row = ctx.loaders.byId(CalendarEntry).settled(id);
    const seen = visibleEntryIds(ctx).settled(id);
    if (row !== undefined && seen !== undefined) return row && seen ? row : null;
    return findVisibleEntries(ctx, [id]).then(([found]) => found);
  }

  @FieldResolver(() => CalendarEntryConnection, {
    description: 'The occurrences of the series this entry is the base of (empty for other entries), in the order asked (default: newest first).',
  })
  async recurrences(
    @Root() entry: CalendarEntry,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CALENDAR_ENTRY_FIELDS.Filter, {
      nullable: true,
      description: 'Which of its occurrences; all of them (but inactive ones) when absent.',
    })
    filter?: CalendarEntryFilter,
    @Arg('orderBy', () => [CALENDAR_ENTRY_FIELDS.Order], ORDER_ARG) orderBy?: CalendarEntryOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return nestedEntries(ctx, 'base', entry.id, args, filter, orderBy, info);
  }
}

async function nestedEntries(
  ctx: RequestContext,
  parent: 'deal' | 'person' | 'company' | 'base',
  id: number,
  args: ConnectionArgs,
  filter: CalendarEntryFilter | undefined,
  orderBy: CalendarEntryOrder[] | undefined,
  info: GraphQLResolveInfo | undefined,
) {
  const page = await calendarEntriesOf(ctx, parent, id, { args, filter, orderBy, reads: connectionReads(info) });
  await preloadEntries(ctx, page.nodes, info);
  return page;
}

const nestedDoc = (what: string, link: string) => ({
  description: `Calendar entries ${link} this ${what} that the viewer may see. Default order: newest first.`,
});
const NESTED_FILTER = { nullable: true, description: 'Which of its calendar entries; all of them (but those of deleted series) when absent.' };

/** `Deal.calendarEntries`, `Person.calendarEntries`, `Company.calendarEntries`. */
export const CALENDAR_ENTRY_PARENT_RESOLVERS = nestedConnectionResolvers<CalendarEntryFilter, CalendarEntryOrder>({
  field: 'calendarEntries',
  connection: CalendarEntryConnection,
  filter: CALENDAR_ENTRY_FIELDS.Filter,
  order: CALENDAR_ENTRY_FIELDS.Order,
  doc: (parent) => nestedDoc(parent, parent === 'company' ? 'about or tied to' : 'about').description,
  filterDoc: () => NESTED_FILTER.description,
  orderDoc: ORDER_ARG.description,
  page: nestedEntries,
});
