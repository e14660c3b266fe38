import { Arg, Ctx, Extensions, Field, Info, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import type { ListSize, RowCost } from '../../graphql/cost';
import { SavedSearchType, withSavedSearch } from '../saved-searches/saved-search.apply';
import { CalendarEntry } from './calendar-entry.entity';
import { CALENDAR_ENTRY_FIELDS, type CalendarEntryFilter } from './calendar-entry.fields';
import { CALENDAR_FEED_LIMIT, CalendarFeedService, type CalendarFeedData } from './calendar-feed.service';
import { Scope } from '../../graphql/scopes';

@ObjectType('CalendarFeed', {
  description:
    "The viewer's calendar entries as one iCalendar (RFC 5545) document, for calendar applications: entries of no series, and each recurring series once (its base entry with its rules).",
})
export class CalendarFeed {
  constructor(private readonly data: CalendarFeedData) {}

  @Field(() => [CalendarEntry], {
    description: `The entries written as components, in start order (events by start, tasks by due date, tasks due someday last): each matching entry of no series, and the base entry of every series with a matching entry. At most ${CALENDAR_FEED_LIMIT}.`,
  })
  @Extensions({ listSize: { max: CALENDAR_FEED_LIMIT } satisfies ListSize })
  get entries(): readonly CalendarEntry[] {
    return this.data.entries;
  }

  @Field({ description: `true when more than ${CALENDAR_FEED_LIMIT} components matched: the feed holds the first ${CALENDAR_FEED_LIMIT} in start order.` })
  get truncated(): boolean {
    return this.data.truncated;
  }

  @Field({
    description:
      "The VCALENDAR text (CRLF line ends): events as VEVENT, tasks as VTODO, a series as its base with RRULE, RDATE, EXRULE and EXDATE (occurrences cancelled one by one as EXDATEs), times in the series' time zone with its VTIMEZONE.",
  })
  get ics(): string {
    return this.data.render();
  }
}

// eslint-disable-next-line no-useless-assignment -- read by a decorator, which the rule does not see
const FEED_SEARCH_ID_DOC =
  'Run a saved search of calendar entries (its databaseId): its conditions hold besides `filter` (not its sort: the feed is in start order). A search the viewer may not see, of another list, or missing is a BAD_USER_INPUT error naming `searchId`.';

@Resolver()
export class CalendarFeedResolver {
  @Query(() => CalendarFeed, {
    description: `The viewer's calendar entries matching the filter as an iCalendar feed (v3 GET /calendar_entries.ics). Costs like reading ${CALENDAR_FEED_LIMIT} records.`,
  })
  // Reads up to CALENDAR_FEED_LIMIT rows of its own: charged like a page of that many (cost.ts RowCost).
  @Extensions({ rowCost: { rows: CALENDAR_FEED_LIMIT } satisfies RowCost })
  @Scope('calendar_entries:read')
  async calendarFeed(
    @Ctx() ctx: RequestContext,
    @Arg('filter', () => CALENDAR_ENTRY_FIELDS.Filter, {
      nullable: true,
      description: 'Which calendar entries; all of them (but those of deleted series) when absent.',
    })
    filter?: CalendarEntryFilter,
    @Info() info?: GraphQLResolveInfo,
    @Arg('searchId', () => Int, { nullable: true, description: FEED_SEARCH_ID_DOC }) searchId?: number | null,
  ): Promise<CalendarFeed> {
    const search = await withSavedSearch(ctx, SavedSearchType.CALENDAR_ENTRIES, searchId, filter, undefined, info);
    return new CalendarFeed(await new CalendarFeedService(ctx).feed(search.filter));
  }
}
