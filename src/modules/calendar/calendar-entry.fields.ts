import { Field, InputType, Int } from 'type-graphql';
import { BadInputError } from '../../common/errors';
import { boundedInstant, EnumFilterOf, MAX_IN_VALUES } from '../../graphql/filters';
import { isValidId } from '../../graphql/ids';
import { defineResource, type FilterScope, type InputOf } from '../../kit/fields';
import { visibleRows } from '../common/related-filters';
import { CalendarAssociationType, CalendarEntry, CalendarEntryKind } from './calendar-entry.entity';
import { CALENDAR_ENTRY_RECORDS } from './calendar-entry.visibility';
import { CalendarEntryDue, localDate, periodSpan, pinOf, today, type DaySpan } from './calendar-entry.periods';

@InputType('CalendarEntryKindFilter', { description: 'Conditions on whether a calendar entry is a task or an event.' })
export class CalendarEntryKindFilter extends EnumFilterOf(CalendarEntryKind, 'kind') {}

@InputType('CalendarEntryDueFilter', {
  description: "When entries fall, in the viewer's time zone (tasks by due date, events by overlapping the span): `eq` one period, `in` any of several.",
})
export class CalendarEntryDueFilter extends EnumFilterOf(CalendarEntryDue, 'period') {}

/** The range of an instant read as a day of the viewer's (src/common/dates.ts), in the schema's words. */
export const SPAN_RANGE_DOC = "Years 1 to 9999, in UTC and in the viewer's time zone.";

@InputType('CalendarEntrySpan', {
  description: "A span of time, both ends inclusive (either alone): tasks due on a day of it (in the viewer's time zone), events overlapping it.",
})
export class CalendarEntrySpan {
  @Field(() => Date, { nullable: true, description: `The start of the span (ISO 8601 with a zone). ${SPAN_RANGE_DOC}` }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: `The end of the span (ISO 8601 with a zone). ${SPAN_RANGE_DOC}` }) to?: Date | null;
}

type Fragment = { sql: string; params: unknown[] };

const TASK = `ce.kind = 'task'`;
const EVENT = `ce.kind = 'event'`;

/**
 * Entries falling in `[from, to)`: tasks due on a local day of it, events overlapping it (an
 * event ending exactly at `from` does not; one of no length starting at `from` does).
 */
function inSpan(span: DaySpan): Fragment {
  const task =
    span.toDate === null
      ? { sql: `ce.due_date >= ?::date`, params: [span.fromDate] }
      : { sql: `ce.due_date >= ?::date and ce.due_date < ?::date`, params: [span.fromDate, span.toDate] };
  const reaches = `(ce.end_time > ? or ce.start_time >= ?)`;
  const event =
    span.to === null ? { sql: reaches, params: [span.from, span.from] } : { sql: `ce.start_time < ? and ${reaches}`, params: [span.to, span.from, span.from] };
  return { sql: `(${TASK} and ${task.sql}) or (${EVENT} and ${event.sql})`, params: [...task.params, ...event.params] };
}

function dueCondition(due: CalendarEntryDue, value: unknown): Fragment {
  const pin = pinOf(value);
  switch (due) {
    case CalendarEntryDue.LATE:
      // Decided (docs/calendar.md): incomplete tasks due before today, incomplete events that ended before now.
      return { sql: `ce.complete = false and ((${TASK} and ce.due_date < ?::date) or (${EVENT} and ce.end_time < ?))`, params: [today(pin).fromDate, pin.now] };
    case CalendarEntryDue.SOMEDAY:
      return { sql: `${TASK} and ce.due_date is null`, params: [] };
    default:
      return inSpan(periodSpan(due, pin));
  }
}

/** `due: {eq, in}`: each period's condition, `in` any of them (an empty `in` matches none). */
function dueFilter(value: { eq?: CalendarEntryDue | null; in?: CalendarEntryDue[] | null }, path: string): Fragment | null {
  const anyOf = (values: readonly CalendarEntryDue[]): Fragment => {
    if (values.length === 0) return { sql: 'false', params: [] };
    const parts = values.map((v) => dueCondition(v, value));
    return { sql: parts.map((p) => `(${p.sql})`).join(' or '), params: parts.flatMap((p) => p.params) };
  };
  const parts: Fragment[] = [];
  if (value.eq != null) parts.push(anyOf([value.eq]));
  if (value.in != null) {
    if (value.in.length > MAX_IN_VALUES) throw new BadInputError(`${path}.in`, `at most ${MAX_IN_VALUES} values, got ${value.in.length}`);
    parts.push(anyOf(value.in));
  }
  if (parts.length === 0) return null;
  return { sql: parts.map((p) => `(${p.sql})`).join(' and '), params: parts.flatMap((p) => p.params) };
}

/** `within: {from, to}` (v3 `conditions[within]`): tasks due on a local day of it, events overlapping it; both ends inclusive. */
function withinFilter(value: CalendarEntrySpan, path: string): Fragment | null {
  const pin = pinOf(value);
  // Each end is a day in the viewer's zone for tasks (a date parameter): in range there too, not only in UTC.
  const from = value.from == null ? null : boundedInstant(value.from, `${path}.from`, pin.timeZone);
  const to = value.to == null ? null : boundedInstant(value.to, `${path}.to`, pin.timeZone);
  if (from === null && to === null) return null;
  const task: string[] = [];
  const event: string[] = [];
  const taskParams: unknown[] = [];
  const eventParams: unknown[] = [];
  if (from !== null) {
    task.push('ce.due_date >= ?::date');
    taskParams.push(localDate(from, pin.timeZone));
    event.push('ce.end_time >= ?');
    eventParams.push(from);
  }
  if (to !== null) {
    task.push('ce.due_date <= ?::date');
    taskParams.push(localDate(to, pin.timeZone));
    event.push('ce.start_time <= ?');
    eventParams.push(to);
  }
  return { sql: `(${TASK} and ${task.join(' and ')}) or (${EVENT} and ${event.join(' and ')})`, params: [...taskParams, ...eventParams] };
}

/**
 * v3 `conditions[recurrences_of]`: the other entries of the series the entry `id` belongs to (its
 * base and recurrences, the entry itself left out). The entry named is a related record: one the
 * viewer may not see names no series, as a missing one. Tenancy of the listed entries: the outer query's.
 */
function recurrencesOfFilter(id: number, path: string, scope: FilterScope): Fragment {
  if (typeof id !== 'number' || !isValidId(id)) throw new BadInputError(path, 'must be a databaseId');
  const named = visibleRows(scope, CALENDAR_ENTRY_RECORDS, 's');
  const series = `(select coalesce(s.base_entry_id, s.id) from ${named.from} where s.id = ? and ${named.sql})`;
  return { sql: `ce.id <> ? and (ce.id = ${series} or ce.base_entry_id = ${series})`, params: [id, id, ...named.params, id, ...named.params] };
}

/**
 * Every calendar entry field, once (v3 §2.1): inputs, filter, order and the write whitelist derive
 * from it (src/kit/fields.ts). Kind-specific fields, the association, the recurrence rules and
 * `complete` are written by the service (calendar-entry.service.ts).
 */
export const CALENDAR_ENTRY_FIELDS = defineResource(
  {
    type: 'CalendarEntry',
    plural: 'calendar entries',
    entity: CalendarEntry,
    alias: 'ce',
    defaultOrder: ['-createdAt'],
    createDoc:
      "A new calendar entry: its kind (required), a task's due date or an event's start and end (both required for events), what it is about, and an optional recurrence (RFC 5545). The owner defaults to the viewer.",
    updateDoc:
      "Changes to a calendar entry: only the fields given change; null clears a field. The kind is kept. Changing the rule or the times of a series' base entry rebuilds the series' future occurrences.",
    filterDoc:
      'Which calendar entries to list: every condition given must hold; compose with and, or, not. Entries of deleted series (active false) are left out unless includeInactive is true or active is conditioned (at the top level or inside and).',
    orderDoc: 'A key calendar entries can be ordered by.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The entry's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    kind: {
      kind: 'enum',
      enum: CalendarEntryKind,
      write: 'custom',
      required: true,
      doc: 'Task or event.',
      createDoc: 'Task or event (v3 type).',
      updateDoc: 'Ignored: an entry keeps the kind it was created with (accepted so that a record read can be sent back whole).',
      filter: { input: () => CalendarEntryKindFilter, doc: 'Task or event (v3 kind).' },
    },
    name: { kind: 'text', write: 'auto', doc: 'What the entry is called, at most 255 characters.', filter: { doc: 'The name (v3 named: exactly this name).' } },
    description: { kind: 'text', write: 'auto', doc: 'Free text about the entry.' },
    ownerId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the owner, a user of the account; the viewer when not given on create.',
      filter: { doc: "The owner (a user's databaseId)." },
    },
    categoryId: {
      kind: 'ref',
      write: 'custom',
      doc: "databaseId of the entry's category (an item of the event categories list); null removes it.",
      filter: { doc: 'The category (its databaseId).' },
    },
    calendarEntryPriorityId: {
      kind: 'ref',
      write: 'custom',
      doc: "databaseId of the entry's priority (an item of the calendar entry priorities list); null removes it.",
      filter: { doc: 'The priority (its databaseId).' },
    },
    startTime: {
      kind: 'datetime',
      write: 'custom',
      doc: 'When an event starts (required for events; tasks take none).',
      filter: { doc: 'When an event starts (v3 starting_at: exactly this instant).' },
      sort: { doc: 'Start of events (tasks last).' },
    },
    endTime: {
      kind: 'datetime',
      write: 'custom',
      doc: 'When an event ends, not before it starts (required for events; tasks take none).',
      filter: { doc: 'When an event ends (v3 ending_at: exactly this instant).' },
    },
    allDay: {
      kind: 'boolean',
      write: 'custom',
      doc: 'Whether the entry takes whole days; when not given on create, true for tasks and false for events.',
      filter: { doc: 'All-day entries (true) or not (false).' },
    },
    dueDate: {
      kind: 'date',
      write: 'custom',
      doc: 'The day a task is due (YYYY-MM-DD); null for someday. Events take none.',
      filter: { doc: 'The day a task is due.' },
      sort: { doc: 'Due date of tasks (events and tasks without one last).' },
    },
    complete: {
      kind: 'boolean',
      write: 'custom',
      doc: 'Whether the entry is done: becoming true sets completedAt, becoming false clears it.',
      filter: { doc: 'Complete (true) or not (false) (v3 completed, incomplete).' },
    },
    associationType: {
      kind: 'enum',
      enum: CalendarAssociationType,
      property: null,
      write: 'custom',
      doc: 'The kind of record the entry is about; given with associationId (null with it removes the association).',
    },
    associationId: {
      kind: 'ref',
      property: null,
      write: 'custom',
      doc: 'databaseId of the deal, person or company (per associationType) the entry is about: one the viewer may see.',
    },
    dealId: { kind: 'ref', filter: { doc: 'The deal the entry is about.' } },
    personId: { kind: 'ref', filter: { doc: 'The person the entry is about.' } },
    companyId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the company the entry is tied to (one the viewer may see); for a company association it is that company.',
      filter: { doc: 'The company the entry is tied to (or about).' },
    },
    active: {
      kind: 'boolean',
      write: 'custom',
      doc: 'false hides the entry as if deleted (on update, this entry alone); an inactive entry cannot be changed back (it is not found).',
      filter: { doc: 'Active entries (true) or those of deleted series (false); conditioning it lists inactive entries too.' },
    },
    includeInactive: {
      kind: 'boolean',
      property: null,
      filter: {
        input: () => Boolean as never,
        build: (() => null) as never,
        doc: 'true: entries of deleted series (active false) are listed too (v3 include_inactive). Read at the top level of the filter and inside and.',
      },
    },
    due: {
      kind: 'enum',
      enum: CalendarEntryDue,
      property: null,
      filter: {
        input: () => CalendarEntryDueFilter,
        build: dueFilter as never,
        doc: "When the entry falls, in the viewer's time zone (v3 late, today, tomorrow, this_week, next_week, future, someday).",
      },
    },
    within: {
      kind: 'json',
      property: null,
      filter: {
        input: () => CalendarEntrySpan,
        build: withinFilter as never,
        doc: 'Entries occurring within a span (v3 within): tasks due on a day of it, events overlapping it.',
      },
    },
    recurrencesOf: {
      kind: 'int',
      property: null,
      filter: {
        input: () => Int as never,
        build: recurrencesOfFilter as never,
        related: 'CalendarEntry',
        doc: 'The other entries of the recurring series this entry (its databaseId) belongs to: its base and occurrences, itself left out. An entry the viewer may not see names no series.',
      },
    },
    baseEntryId: { kind: 'ref', filter: { doc: 'The base entry of the series (isNull: true leaves out occurrences: v3 base_entries).' } },
    partOfRecurringSeries: { kind: 'boolean', filter: { doc: 'Entries of a recurring series (true) or of none (false: v3 non_recurring).' } },
    rrule: {
      kind: 'text',
      write: 'custom',
      doc: "The series' recurrence rule (RFC 5545 RRULE, e.g. FREQ=DAILY;COUNT=5), on a base entry only; null ends the series' future. At most once a day: FREQ=DAILY or less often, and at most one value in each of BYHOUR, BYMINUTE and BYSECOND.",
    },
    rdate: { kind: 'text', write: 'custom', doc: 'Extra dates of the series (RFC 5545 RDATE values, comma-separated), on a base entry only.' },
    exrule: { kind: 'text', write: 'custom', doc: 'A rule of dates left out of the series (RFC 5545 EXRULE), on a base entry only.' },
    exdate: { kind: 'text', write: 'custom', doc: 'Dates left out of the series (RFC 5545 EXDATE values, comma-separated), on a base entry only.' },
    createdAt: { kind: 'datetime', filter: { doc: 'When the entry was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the entry last changed (v3 calendar_entry_modified).' }, sort: { doc: 'Last change.' } },
  },
);

export type CalendarEntryInput = InputOf<typeof CALENDAR_ENTRY_FIELDS.table>;
export type CalendarEntryFilter = InstanceType<typeof CALENDAR_ENTRY_FIELDS.Filter>;
export type CalendarEntryOrder = InstanceType<typeof CALENDAR_ENTRY_FIELDS.Order>;
