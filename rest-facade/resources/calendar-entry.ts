import { boolean, date, dateTime, enumOf, id, nameRef, read, recordId, shaped, text, userRef } from './field-table';
import { v3Resource } from './resource-spec';

/**
 * v3 §2.1, keys in the spec's order, then the priority (the "priorities"; todo template
 * items name it `calendar_entry_priority_id`). `owner` is the union of the user shapes (DECISIONS:
 * Responses); `owner_id` is read-only (§2.1 N). `type` is required on create and kept on update.
 * `google_calendar_id` is always null (§2.1: no longer used); read from nothing that costs.
 */
export const calendarEntryResource = v3Resource({
  root: 'calendar_entry',
  type: 'CalendarEntry',
  fragment: 'CalendarEntryV3',
  requiredOnCreate: ['kind'],
  fields: {
    id: recordId(),
    type: enumOf('kind', { CalendarTask: 'TASK', CalendarEvent: 'EVENT' }),
    owner_id: read('ownerId'),
    owner: userRef('owner'),
    category_id: id('categoryId'),
    category: nameRef('category'),
    name: text('name'),
    description: text('description'),
    start_time: dateTime('startTime'),
    end_time: dateTime('endTime'),
    all_day: boolean('allDay'),
    due_date: date('dueDate'),
    complete: boolean('complete'),
    completed_at: read('completedAt', 'dateTime'),
    association_id: id('associationId'),
    association_type: enumOf('associationType', { Deal: 'DEAL', Company: 'COMPANY', Person: 'PERSON' }),
    base_entry_id: read('baseEntryId'),
    active: boolean('active'),
    created_at: read('createdAt', 'dateTime'),
    updated_at: read('updatedAt', 'dateTime'),
    google_calendar_id: shaped(
      read('databaseId', () => null),
      { type: 'null' },
    ),
    company_id: id('companyId'),
    rrule: text('rrule'),
    rdate: text('rdate'),
    exrule: text('exrule'),
    exdate: text('exdate'),
    part_of_recurring_series: read('partOfRecurringSeries'),
    recurrence_end: read('recurrenceEnd', 'date'),
    calendar_entry_priority_id: id('calendarEntryPriorityId'),
    calendar_entry_priority: nameRef('calendarEntryPriority'),
    // As recorded (pipelinedeals_api PipelineDeals_Deal_calendar_entries.yml, ..._Person_...): the
    // record the entry is about, `{id, name}` or for a person `{id, first_name, last_name, phone,
    // mobile, email}`, and the company it is tied to; null when none or hidden from the viewer.
    association: read(
      'association',
      'plain',
      `{ ... on Deal { id: databaseId name } ... on Company { id: databaseId name } ... on Person { id: databaseId first_name: firstName last_name: lastName phone mobile email } }`,
    ),
    associated_company: nameRef('company'),
  },
  errorFields: { ownerId: 'owner_id' },
});

/**
 * GET /calendar_entries.ics (issue 14 §5) answers iCalendar, not records: its operation still
 * lists the entries the feed wrote (as a list route does), and this table reads only their ids.
 */
export const calendarFeedResource = v3Resource({
  root: 'calendar_entry',
  type: 'CalendarEntry',
  fragment: 'CalendarFeedEntryV3',
  fields: { id: recordId() },
  // The feed's answer is iCalendar: nothing else is read.
  deriveFromSchema: false,
});
