import type { RouteSpec } from '../routes/route-spec';

/**
 * Where a route comes from, for the document's `x-crm-origin` and tags:
 * - `spec`: listed by the contract (`../shared/spec/crm-api-v3.md` §4, here by section);
 * - `decisions`: left out by the spec, served because the official clients call it (DECISIONS:
 *   the admin surface, `GET /account.json`, a saved search's show);
 * - `addition`: ours (the change feed, webhooks, the iCalendar feed, documents by parent, the
 *   OpenAPI document itself), and any route that is neither of the above.
 *
 * The spec's route list is a fixed text, transcribed once; a route added later is an addition
 * unless it is an admin list (DECISIONS serves every admin list). test/unit/openapi-document.test.ts
 * holds this list to the route table.
 */

export type RouteOrigin = 'spec' | 'decisions' | 'addition';

/** The routes v3 §4 lists, by `METHOD path` as the route table spells them, with the section. */
export const SPEC_ROUTES: Readonly<Record<string, string>> = {
  ...crud('/calendar_entries', 'v3 §4.1'),
  'GET /people/:id/calendar_entries': 'v3 §4.1',
  'GET /deals/:id/calendar_entries': 'v3 §4.1',
  'GET /companies/:id/calendar_entries': 'v3 §4.1',
  ...crud('/notes', 'v3 §4.2'),
  'GET /deals/:id/notes': 'v3 §4.2',
  'GET /people/:id/notes': 'v3 §4.2',
  'GET /companies/:id/notes': 'v3 §4.2',
  'GET /notes/:noteId/comments': 'v3 §4.3',
  'GET /deals/:associationId/notes/:noteId/comments': 'v3 §4.3',
  'GET /people/:associationId/notes/:noteId/comments': 'v3 §4.3',
  'GET /companies/:associationId/notes/:noteId/comments': 'v3 §4.3',
  'POST /notes/:noteId/comments': 'v3 §4.3',
  'GET /notes/:noteId/comments/:id': 'v3 §4.3',
  'PUT /notes/:noteId/comments/:id': 'v3 §4.3',
  'DELETE /notes/:noteId/comments/:id': 'v3 §4.3',
  ...crud('/people', 'v3 §4.4'),
  'GET /people/:id/deals': 'v3 §4.4',
  ...crud('/deals', 'v3 §4.5'),
  'GET /deals/:id/people': 'v3 §4.5',
  ...crud('/companies', 'v3 §4.6'),
  'GET /companies/:id/people': 'v3 §4.6',
  'GET /companies/:id/deals': 'v3 §4.6',
  ...crud('/documents', 'v3 §4.7'),
  'POST /conversations': 'v3 §4.8',
  'GET /conversations/:id': 'v3 §4.8',
  'PUT /conversations/:id': 'v3 §4.8',
  'DELETE /conversations/:id': 'v3 §4.8',
  ...crud('/account_notifications', 'v3 §4.9'),
  'GET /admin/lead_statuses': 'v3 §4.10',
  'GET /admin/predefined_contacts_tags': 'v3 §4.10',
  'GET /admin/note_categories': 'v3 §4.10',
  'GET /users': 'v3 §4.11',
  'GET /users/:id': 'v3 §4.11',
  'GET /profile': 'v3 §4.11',
  'GET /searches': 'v3 §4.11',
};

/** The five routes of v3 §1.2's verb mapping on one collection. */
function crud(path: string, section: string): Record<string, string> {
  const routes = [`GET ${path}`, `POST ${path}`, `GET ${path}/:id`, `PUT ${path}/:id`, `DELETE ${path}/:id`];
  return Object.fromEntries(routes.map((route) => [route, section]));
}

/** Our additions, by path prefix, with where they are decided. Checked before the DECISIONS rules. */
export const ADDITIONS: ReadonlyArray<{ readonly prefix: string; readonly source: string }> = [
  { prefix: '/changes', source: 'issue 24 §2: the change feed (docs/changes.md)' },
  { prefix: '/admin/webhooks', source: 'issue 24: webhooks, in the shape DECISIONS (Webhooks) records' },
  { prefix: '/calendar_entries.ics', source: 'issue 14 §5: the iCalendar feed (docs/calendar.md)' },
];

/** The routes DECISIONS adds (Routes clients use that the spec does not list; Admin surface). */
const DECISIONS_ROUTES: ReadonlyArray<{ readonly test: (route: Pick<RouteSpec, 'method' | 'path'>) => boolean; readonly source: string }> = [
  { test: (r) => r.method === 'GET' && r.path === '/account', source: 'DECISIONS: Routes clients use that the spec does not list' },
  { test: (r) => r.method === 'GET' && r.path === '/searches/:id', source: 'DECISIONS: Admin surface (saved searches)' },
  { test: (r) => r.path.startsWith('/admin/'), source: 'DECISIONS: Admin surface' },
];

export function originOf(route: Pick<RouteSpec, 'method' | 'path'>): { origin: RouteOrigin; source: string } {
  const spec = SPEC_ROUTES[`${route.method} ${route.path}`];
  if (spec) return { origin: 'spec', source: spec };
  const addition = ADDITIONS.find((a) => route.path === a.prefix || route.path.startsWith(`${a.prefix}/`));
  if (addition) return { origin: 'addition', source: addition.source };
  const decided = DECISIONS_ROUTES.find((d) => d.test(route));
  if (decided) return { origin: 'decisions', source: decided.source };
  return { origin: 'addition', source: 'ours: beyond the spec and DECISIONS' };
}
