import { Arg, Args, Ctx, Field, FieldResolver, ID, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { Node, registerNode, toGlobalId } from '../../graphql/node';
import { DeletePayload, payloadOf, RecordPayload, recordPayload } from '../../graphql/payload';
import { Company } from '../companies/company.entity';
import { COMPANIES } from '../companies/company.service';
import { linkable, sharesOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEALS } from '../deals/deal.service';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { PEOPLE } from '../people/person.fields';
import { SavedSearchType, SEARCH_ID_DOC, withSavedSearch } from '../saved-searches/saved-search.apply';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { CalendarAssociationType, CalendarEntry } from './calendar-entry.entity';
import { CALENDAR_ENTRY, type CalendarEntryFilter, type CalendarEntryInput, type CalendarEntryOrder } from './calendar-entry.fields';
import { calendarEntriesOf, CALENDAR_ENTRIES_PAGE_SIZE } from './calendar-entry.loaders';
import { CalendarEntryService, findVisibleEntries, visibleEntryIds } from './calendar-entry.service';

@ObjectType('CalendarEntryConnection', { description: 'A page of calendar entries, with cursors.' })
export class CalendarEntryConnection extends ConnectionOf(CalendarEntry, 'CalendarEntry', 'calendar entries') {}

@ObjectType('CreateCalendarEntryPayload', { description: 'The result of createCalendarEntry.' })
class CreateCalendarEntryPayload extends RecordPayload(CalendarEntry, 'calendarEntry', 'The created entry (the base entry when it starts a recurring series)') {}
@ObjectType('UpdateCalendarEntryPayload', { description: 'The result of updateCalendarEntry.' })
class UpdateCalendarEntryPayload extends RecordPayload(CalendarEntry, 'calendarEntry', 'The entry as changed') {}

@ObjectType('DeleteCalendarEntryPayload', { description: 'The result of deleteCalendarEntry: the entry asked for, and every entry the delete removed or deactivated.' })
class DeleteCalendarEntryPayload extends DeletePayload {
  @Field(() => [ID], { description: 'Global ids of every entry removed or deactivated: the entry itself, or its whole series (base first); empty when nothing was deleted.' })
  affectedIds!: string[];

  @Field(() => [Int], { description: 'databaseIds of every entry removed or deactivated (what v3 answers), base first; empty when nothing was deleted.' })
  affectedDatabaseIds!: number[];

  @Field({ description: 'true when the entry belonged to a recurring series, which was deactivated as a whole (its entries stay, with active false); false when the entry was removed.' })
  seriesDeactivated!: boolean;
}

registerNode({ name: 'CalendarEntry', entity: CalendarEntry, find: (ctx, ids) => findVisibleEntries(ctx, ids) });

/** The association's deal of a row, for the preload (only when the association is a deal). */
const associated = (kind: CalendarAssociationType) => (e: CalendarEntry) => (e.associationKind === kind ? (kind === CalendarAssociationType.DEAL ? e.deal?.id : e.person?.id) : undefined);

/** The deals' shares of a page of entries (a deal's visibility needs them): the deal ids come from the rows. */
const PAGE_DEALS = new WeakMap<object, Map<number, number>>();
function dealSharesOfEntries(ctx: RequestContext, entryIds: readonly number[]): Promise<unknown> {
  const byEntry = PAGE_DEALS.get(ctx) ?? new Map<number, number>();
  const dealIds = entryIds.map((id) => byEntry.get(id)).filter((id): id is number => id != null);
  return dealIds.length ? sharesOf(ctx, DEALS).loadMany([...new Set(dealIds)]) : Promise.resolve();
}

/** The base entries of a page (their rows and whether the viewer sees them), from the rows' baseEntry ids. */
const PAGE_BASES = new WeakMap<object, Map<number, number>>();
function basesOfEntries(ctx: RequestContext, entryIds: readonly number[]): Promise<unknown> {
  const byEntry = PAGE_BASES.get(ctx) ?? new Map<number, number>();
  const baseIds = [...new Set(entryIds.map((id) => byEntry.get(id)).filter((id): id is number => id != null))];
  return baseIds.length ? Promise.all([ctx.loaders.byId(CalendarEntry).loadMany(baseIds), visibleEntryIds(ctx).loadMany(baseIds)]) : Promise.resolve();
}

/** What a page of entries reads: one batch per source, then each row's fields answer synchronously. */
const ENTRY_RELATIONS: readonly RelationPreload<CalendarEntry>[] = [
  usersPreload('owner'),
  { fields: ['category'], source: ListItem, ids: (e) => e.category?.id },
  { fields: ['calendarEntryPriority'], source: ListItem, ids: (e) => e.calendarEntryPriority?.id },
  { fields: ['company', 'association'], source: Company, ids: (e) => e.company?.id },
  { fields: ['association'], source: Deal, ids: associated(CalendarAssociationType.DEAL) },
  { fields: ['association'], perRow: (ctx) => ({ loadMany: (ids: readonly number[]) => dealSharesOfEntries(ctx, ids) }) },
  { fields: ['association'], source: Person, ids: associated(CalendarAssociationType.PERSON) },
  { fields: ['baseEntry'], perRow: (ctx) => ({ loadMany: (ids: readonly number[]) => basesOfEntries(ctx, ids) }) },
];

async function preloadEntries(ctx: RequestContext, rows: readonly CalendarEntry[], info?: GraphQLResolveInfo): Promise<void> {
  let deals = PAGE_DEALS.get(ctx);
  if (!deals) PAGE_DEALS.set(ctx, (deals = new Map()));
  let bases = PAGE_BASES.get(ctx);
  if (!bases) PAGE_BASES.set(ctx, (bases = new Map()));
  for (const e of rows) {
    if (e.deal && e.associationKind === CalendarAssociationType.DEAL) deals.set(e.id, e.deal.id);
    if (e.baseEntry) bases.set(e.id, e.baseEntry.id);
  }
  await preloadPage(ctx, ENTRY_RELATIONS, rows, info);
}

/** A linked deal: null when the viewer may not see it. */
function visibleDeal(ctx: RequestContext, id: number | undefined): Deal | null | Promise<Deal | null> {
  if (id == null) return null;
  const loader = ctx.loaders.byId(Deal);
  const shares = sharesOf(ctx, DEALS);
  const deal = loader.settled(id);
  const shared = shares.settled(id);
  if (deal !== undefined && shared !== undefined) return deal && DEALS.visibility.canSee(ctx.viewer, deal, shared) ? deal : null;
  return Promise.all([loader.load(id), shares.load(id)]).then(([d, s]) => (d && DEALS.visibility.canSee(ctx.viewer, d, s) ? d : null));
}

/** A linked company: null when the viewer may not see it. */
const visibleCompany = (ctx: RequestContext, id: number | undefined) => relationField(ctx, Company, id, (c) => (c && linkable(ctx, COMPANIES, c) ? c : null));

const ID_ARG = { description: 'The calendar entry\'s databaseId.' };
const FILTER_ARG = { nullable: true, description: 'Which calendar entries; all of them (but those of deleted series) when absent.' };
const ORDER_ARG = { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' };

@Resolver()
export class CalendarEntryResolver {
  @Query(() => CalendarEntryConnection, {
    description:
      'Calendar entries the viewer may see (their own, and those about or tied to a deal, person or company they may see). Default order: newest first. Entries of deleted series are left out unless the filter asks for them.',
  })
  async calendarEntries(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CALENDAR_ENTRY.Filter, FILTER_ARG) filter?: CalendarEntryFilter,
    @Arg('orderBy', () => [CALENDAR_ENTRY.Order], ORDER_ARG) orderBy?: CalendarEntryOrder[],
    @Info() info?: GraphQLResolveInfo,
    @Arg('searchId', () => Int, { nullable: true, description: SEARCH_ID_DOC }) searchId?: number | null,
  ): Promise<Connection<CalendarEntry>> {
    const search = await withSavedSearch(ctx, SavedSearchType.CALENDAR_ENTRIES, searchId, filter, orderBy, info);
    const result = await new CalendarEntryService(ctx).list(search.filter, search.orderBy, pagingOf(args, CALENDAR_ENTRIES_PAGE_SIZE), connectionReads(info));
    await preloadEntries(ctx, result.nodes, info);
    return result;
  }

  @Query(() => CalendarEntry, { nullable: true, description: 'One calendar entry by databaseId; null when it does not exist, the viewer may not see it, or its series was deleted.' })
  calendarEntry(@Ctx() ctx: RequestContext, @Arg('id', () => Int, ID_ARG) id: number) {
    return new CalendarEntryService(ctx).get(id);
  }

  @Mutation(() => CreateCalendarEntryPayload, {
    description: 'Creates a task or an event; with a recurrence rule, the base entry of a series whose occurrences are stored as entries of their own. Problems with the input come back as userErrors, and nothing is created.',
  })
  createCalendarEntry(@Ctx() ctx: RequestContext, @Arg('input', () => CALENDAR_ENTRY.CreateInput, { description: 'The new entry.' }) input: CalendarEntryInput) {
    return recordPayload('calendarEntry', () => new CalendarEntryService(ctx).create(input));
  }

  @Mutation(() => UpdateCalendarEntryPayload, {
    description: 'Changes a calendar entry: only the fields given. Changing the rule or times of a series\' base rebuilds the series\' future occurrences; an occurrence changes alone. A missing, hidden or inactive entry is a NOT_FOUND user error.',
  })
  updateCalendarEntry(@Ctx() ctx: RequestContext, @Arg('id', () => Int, ID_ARG) id: number, @Arg('input', () => CALENDAR_ENTRY.UpdateInput, { description: 'The changes.' }) input: CalendarEntryInput) {
    return recordPayload('calendarEntry', () => new CalendarEntryService(ctx).update(id, input));
  }

  @Mutation(() => DeleteCalendarEntryPayload, {
    description: 'Deletes a calendar entry. An entry of a recurring series deactivates the whole series (base and occurrences); any other entry is removed. A missing, hidden or inactive entry is a NOT_FOUND user error.',
  })
  async deleteCalendarEntry(@Ctx() ctx: RequestContext, @Arg('id', () => Int, ID_ARG) id: number): Promise<DeleteCalendarEntryPayload> {
    const { result, userErrors } = await payloadOf(() => new CalendarEntryService(ctx).delete(id));
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
  @FieldResolver(() => User, { nullable: true, description: 'The entry\'s owner.' })
  owner(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, entry.owner?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: 'The entry\'s category (an item of the event categories list).' })
  category(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, entry.category?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: 'The entry\'s priority (an item of the calendar entry priorities list).' })
  calendarEntryPriority(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, entry.calendarEntryPriority?.id);
  }

  @FieldResolver(() => Node, {
    nullable: true,
    description: 'The deal, person or company the entry is about (select it with `... on Deal` and so on); null when none or when the viewer may not see it (associationId still names it).',
  })
  association(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext): unknown {
    switch (entry.associationType) {
      case CalendarAssociationType.DEAL:
        return visibleDeal(ctx, entry.deal?.id);
      case CalendarAssociationType.PERSON:
        return relationField(ctx, Person, entry.person?.id, (p) => (p && linkable(ctx, PEOPLE, p) ? p : null));
      case CalendarAssociationType.COMPANY:
        return visibleCompany(ctx, entry.company?.id);
      default:
        return null;
    }
  }

  @FieldResolver(() => Company, { nullable: true, description: 'The company the entry is tied to; null when none or when the viewer may not see it (companyId still names it).' })
  company(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext) {
    return visibleCompany(ctx, entry.company?.id);
  }

  @FieldResolver(() => CalendarEntry, { nullable: true, description: 'The first (base) entry of the series this entry is an occurrence of; null on a base, on entries of no series, and when the viewer may not see it.' })
  baseEntry(@Root() entry: CalendarEntry, @Ctx() ctx: RequestContext): CalendarEntry | null | Promise<CalendarEntry | null> {
    const id = entry.baseEntry?.id;
    if (id == null) return null;
    const row = ctx.loaders.byId(CalendarEntry).settled(id);
    const seen = visibleEntryIds(ctx).settled(id);
    if (row !== undefined && seen !== undefined) return row && seen ? row : null;
    return findVisibleEntries(ctx, [id]).then(([found]) => found);
  }

  @FieldResolver(() => CalendarEntryConnection, { description: 'The occurrences of the series this entry is the base of (empty for other entries), in the order asked (default: newest first).' })
  async recurrences(
    @Root() entry: CalendarEntry,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CALENDAR_ENTRY.Filter, { nullable: true, description: 'Which of its occurrences; all of them (but inactive ones) when absent.' }) filter?: CalendarEntryFilter,
    @Arg('orderBy', () => [CALENDAR_ENTRY.Order], ORDER_ARG) orderBy?: CalendarEntryOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return nestedEntries(ctx, 'base', entry.id, args, filter, orderBy, info);
  }
}

async function nestedEntries(ctx: RequestContext, parent: 'deal' | 'person' | 'company' | 'base', id: number, args: ConnectionArgs, filter: CalendarEntryFilter | undefined, orderBy: CalendarEntryOrder[] | undefined, info: GraphQLResolveInfo | undefined) {
  const page = await calendarEntriesOf(ctx, parent, id, { args, filter, orderBy, reads: connectionReads(info) });
  await preloadEntries(ctx, page.nodes, info);
  return page;
}

const nestedDoc = (what: string, link: string) => ({ description: `Calendar entries ${link} this ${what} that the viewer may see. Default order: newest first.` });
const NESTED_FILTER = { nullable: true, description: 'Which of its calendar entries; all of them (but those of deleted series) when absent.' };

@Resolver(() => Deal)
export class DealCalendarEntriesResolver {
  @FieldResolver(() => CalendarEntryConnection, nestedDoc('deal', 'about'))
  calendarEntries(
    @Root() deal: Deal,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CALENDAR_ENTRY.Filter, NESTED_FILTER) filter?: CalendarEntryFilter,
    @Arg('orderBy', () => [CALENDAR_ENTRY.Order], ORDER_ARG) orderBy?: CalendarEntryOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return nestedEntries(ctx, 'deal', deal.id, args, filter, orderBy, info);
  }
}

@Resolver(() => Person)
export class PersonCalendarEntriesResolver {
  @FieldResolver(() => CalendarEntryConnection, nestedDoc('person', 'about'))
  calendarEntries(
    @Root() person: Person,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CALENDAR_ENTRY.Filter, NESTED_FILTER) filter?: CalendarEntryFilter,
    @Arg('orderBy', () => [CALENDAR_ENTRY.Order], ORDER_ARG) orderBy?: CalendarEntryOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return nestedEntries(ctx, 'person', person.id, args, filter, orderBy, info);
  }
}

@Resolver(() => Company)
export class CompanyCalendarEntriesResolver {
  @FieldResolver(() => CalendarEntryConnection, nestedDoc('company', 'about or tied to'))
  calendarEntries(
    @Root() company: Company,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CALENDAR_ENTRY.Filter, NESTED_FILTER) filter?: CalendarEntryFilter,
    @Arg('orderBy', () => [CALENDAR_ENTRY.Order], ORDER_ARG) orderBy?: CalendarEntryOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return nestedEntries(ctx, 'company', company.id, args, filter, orderBy, info);
  }
}
