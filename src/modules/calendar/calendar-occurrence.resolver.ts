import { Arg, Ctx, Extensions, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import type { ListSize } from '../../graphql/cost';
import { CalendarEntry } from './calendar-entry.entity';
import { CALENDAR_ENTRY_FIELDS, SPAN_RANGE_DOC, type CalendarEntryFilter } from './calendar-entry.fields';
import { CalendarOccurrenceService, OCCURRENCES_DEFAULT, OCCURRENCES_MAX, type OccurrenceOf } from './calendar-occurrence.service';
import { RECURRENCE_LIMITS } from './recurrence';
import { Scope } from '../../graphql/scopes';

@ObjectType('CalendarOccurrence', {
  simpleResolvers: true,
  description:
    'One occurrence of a calendar entry in a window: a stored entry, or an occurrence of a recurring series computed from its rule past the occurrences stored.',
})
export class CalendarOccurrence implements OccurrenceOf {
  @Field(() => CalendarEntry, {
    description:
      "The entry this occurrence is: the stored entry itself (an entry of no series, a series' base, or a stored occurrence), or, when fromRule is true, the base entry of its series.",
  })
  entry!: CalendarEntry;

  @Field(() => Date, { description: "When the occurrence starts; for a task, its due date at 00:00 in the entry's time zone." })
  start!: Date;

  @Field(() => Date, { description: "When the occurrence ends; for a task, the next midnight in the entry's time zone (one day later)." })
  end!: Date;

  @Field({ description: "Whether the occurrence takes whole days: always for tasks, the entry's allDay for events." })
  allDay!: boolean;

  @Field({
    description:
      "true when computed from the series' rule past its stored occurrences (entry is then the base: such an occurrence cannot be changed on its own); false when entry is the stored entry itself.",
  })
  fromRule!: boolean;
}

@Resolver()
export class CalendarOccurrenceResolver {
  @Query(() => [CalendarOccurrence], {
    description: `The occurrences of the viewer's calendar entries overlapping a window, sorted by start (then entry): stored entries as themselves, recurring series computed from their rules past their stored occurrences. A bounded list, not a connection: at most ${OCCURRENCES_MAX}, the earliest; a window of at most ${RECURRENCE_LIMITS.windowDays} days. Costs like a page of \`first\` records.`,
  })
  // Charged like a page of `first` records (cost.ts ListSize on an Int argument).
  @Extensions({ listSize: { argument: 'first', max: OCCURRENCES_MAX } satisfies ListSize })
  @Scope('calendar_entries:read')
  occurrences(
    @Ctx() ctx: RequestContext,
    @Arg('from', () => Date, { description: `The start of the window (ISO 8601 with a zone), included. ${SPAN_RANGE_DOC}` }) from: Date,
    @Arg('to', () => Date, {
      description: `The end of the window, excluded: after from, at most ${RECURRENCE_LIMITS.windowDays} days after it. ${SPAN_RANGE_DOC}`,
    })
    to: Date,
    @Arg('filter', () => CALENDAR_ENTRY_FIELDS.Filter, {
      nullable: true,
      description:
        "Which entries, as in calendarEntries: a stored entry is listed when it matches, an occurrence computed from a rule when its series' base does.",
    })
    filter?: CalendarEntryFilter,
    @Arg('first', () => Int, {
      nullable: true,
      defaultValue: OCCURRENCES_DEFAULT,
      description: `How many occurrences at most, 0 to ${OCCURRENCES_MAX}: the earliest ones.`,
    })
    first?: number | null,
  ): Promise<OccurrenceOf[]> {
    return new CalendarOccurrenceService(ctx).between(from, to, filter, first ?? OCCURRENCES_DEFAULT);
  }
}
