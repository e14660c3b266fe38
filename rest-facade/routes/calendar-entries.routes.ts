import { createHash } from 'node:crypto';
import { CALENDAR_ENTRY_CONDITIONS, CALENDAR_ENTRY_QUERY_FILTERS, CALENDAR_ENTRY_SORT } from '../../src/modules/calendar/calendar-entry.conditions';
import { FacadeInputError } from '../errors/facade-error';
import { calendarEntryResource, calendarFeedResource } from '../resources/calendar-entry';
import type { RouteHooks, RouteDeclaration } from './route-spec';

// v3 §7: calendar entry validation errors are a bare array.
const base = { resource: calendarEntryResource, errorShape: 'array' } as const;
// DECISIONS (Paging): every list the spec does not name, 100 a page by default and at most (v3 §8).
const list = {
  ...base,
  method: 'GET',
  kind: 'list',
  paging: { default: 100, max: 100 },
  conditions: CALENDAR_ENTRY_CONDITIONS,
  sort: CALENDAR_ENTRY_SORT,
  sortTable: 'calendar_entries',
  searchId: true,
} as const;

/**
 * DECISIONS (Status codes and bodies): a calendar entry's delete answers 200 with a JSON array of
 * the deleted entry ids: the entry's own, or every id of its series (base first), deactivated.
 */
const answersSeriesIds: RouteHooks = {
  reply: (_reply, payload) => ({ status: 200, body: (payload as { affectedDatabaseIds: number[] }).affectedDatabaseIds }),
};

/**
 * v3 §2.1: `type` is required on create. The create input requires it (a blank one is filled in as
 * '' so that the request is not refused as a whole): answered as the v3 422 naming `type`.
 */
const requiresType: RouteHooks = {
  variables: (variables) => {
    const input = variables.input as { kind?: unknown } | undefined;
    if (input && (input.kind === '' || input.kind == null)) throw new FacadeInputError('type', "can't be blank");
    return variables;
  },
};

const ICALENDAR = 'text/calendar; charset=utf-8';

/** Whether an `If-None-Match` header names `etag` (or is `*`); weak tags compare by their value (RFC 9110 §13.1.2). */
function matchesETag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etag);
}

/**
 * Issue 14 §5: the feed answers the core's VCALENDAR text as `text/calendar`, inline as
 * calendar.ics, with an ETag (a hash of the text); a matching If-None-Match is a 304 without it.
 * Private: the URL carries the viewer's key.
 */
const answersICalendar: RouteHooks = {
  reply: (_reply, payload, request) => {
    const ics = (payload as { ics: string }).ics;
    const etag = `"${createHash('sha256').update(ics).digest('base64url').slice(0, 32)}"`;
    const cache = { ETag: etag, 'Cache-Control': 'private, no-cache' };
    if (matchesETag(request.headers['if-none-match'], etag)) return { status: 304, headers: cache, raw: { contentType: ICALENDAR, bytes: '' } };
    return { status: 200, headers: { ...cache, 'Content-Disposition': 'inline; filename="calendar.ics"' }, raw: { contentType: ICALENDAR, bytes: ics } };
  },
  doc: {
    headers: { 'If-None-Match': { type: 'text', description: 'The ETag of a feed read before: a 304 when nothing changed.' } },
    statuses: { 304: 'Not modified: the feed is the one the `If-None-Match` ETag names.' },
    replyHeaders: { ETag: 'A hash of the feed, for If-None-Match.', 'Content-Disposition': 'inline; filename="calendar.ics"' },
  },
};

export const CALENDAR_ENTRY_ROUTES: readonly RouteDeclaration[] = [
  { ...list, path: '/calendar_entries', result: 'calendarEntries', queryFilters: CALENDAR_ENTRY_QUERY_FILTERS },
  // Issue 14 §5: the same entries as an iCalendar feed (a calendar application subscribes to the
  // URL, api_key in it): the list's conditions, plain filters and search_id; no paging or sort
  // (the first 1000 components in start order, the core decides).
  {
    ...base,
    resource: calendarFeedResource,
    method: 'GET',
    kind: 'list',
    path: '/calendar_entries.ics',
    op: 'CalendarFeed',
    result: 'calendarFeed',
    conditions: CALENDAR_ENTRY_CONDITIONS,
    queryFilters: CALENDAR_ENTRY_QUERY_FILTERS,
    searchId: true,
    produces: 'text/calendar',
    hooks: answersICalendar,
  },
  // v3 §4.1: the entries of a person, deal, company (a parent the viewer cannot see is a 404).
  { ...list, path: '/people/:id/calendar_entries', result: 'calendarEntries', pathFilters: { id: 'personId' } },
  { ...list, path: '/deals/:id/calendar_entries', result: 'calendarEntries', pathFilters: { id: 'dealId' } },
  { ...list, path: '/companies/:id/calendar_entries', result: 'calendarEntries', pathFilters: { id: 'companyId' } },
  // Inactive entries (of deleted series) are not found (v3 §3: "gone from shows").
  { ...base, method: 'GET', path: '/calendar_entries/:id', kind: 'show', result: 'calendarEntry' },
  // v3 §4.1: type is required; a recurrence rule stores the series' occurrences as entries.
  {
    ...base,
    method: 'POST',
    path: '/calendar_entries',
    kind: 'create',
    result: 'createCalendarEntry.calendarEntry',
    hooks: requiresType,
  },
  { ...base, method: 'PUT', path: '/calendar_entries/:id', kind: 'update', result: 'updateCalendarEntry.calendarEntry' },
  {
    ...base,
    method: 'DELETE',
    path: '/calendar_entries/:id',
    kind: 'delete',
    result: 'deleteCalendarEntry',
    deleteBody: 'ids',
    hooks: answersSeriesIds,
  },
];
