import type { CoreModule } from '../module';
import { CalendarEntry } from './calendar-entry.entity';
import { CALENDAR_ENTRY_PARENT_RESOLVERS, CALENDAR_ENTRY_RESOURCE, CalendarEntryDeleteResolver, CalendarEntryFieldsResolver } from './calendar-entry.resolver';
import { CalendarFeedResolver } from './calendar-feed.resolver';
import { CalendarOccurrenceResolver } from './calendar-occurrence.resolver';

export { CalendarAssociationType, CalendarEntry, CalendarEntryKind } from './calendar-entry.entity';
export { CALENDAR_ENTRY_FIELDS, type CalendarEntryFilter, type CalendarEntryInput, type CalendarEntryOrder } from './calendar-entry.fields';
export { CalendarEntryDue, localDate, localMidnight, periodSpan, today, type Pin } from './calendar-entry.periods';
export {
  CALENDAR_ENTRY_RECORDS,
  CalendarEntryService,
  calendarCondition,
  findVisibleEntries,
  loadEntryForWrite,
  visibleEntryIds,
  type CalendarDeletion,
  type NewTask,
} from './calendar-entry.service';
export { anchorOf, rulesOf } from './calendar-entry.series';
export { CALENDAR_FEED_LIMIT, CalendarFeedService, type CalendarFeedData } from './calendar-feed.service';
export { CalendarOccurrenceService, OCCURRENCES_DEFAULT, OCCURRENCES_MAX, type OccurrenceOf } from './calendar-occurrence.service';

/** The calendar: tasks and events, their conditions in the viewer's time zone, recurring series stored as entries, the iCalendar feed and occurrence windows. */
export const calendarModule: CoreModule = {
  name: 'calendar',
  entities: [CalendarEntry],
  resolvers: [
    CALENDAR_ENTRY_RESOURCE.resolver,
    CalendarEntryDeleteResolver,
    CalendarEntryFieldsResolver,
    ...CALENDAR_ENTRY_PARENT_RESOLVERS,
    CalendarFeedResolver,
    CalendarOccurrenceResolver,
  ],
};
