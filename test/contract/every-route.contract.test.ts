import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { FIXTURES, listedIds, missingFixtures, routePath, sampleRoute } from '../support/fixtures';
import { startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * What every v3 route shares (DECISIONS: Responses, Paging, Status codes and bodies), checked on
 * each entry of the route table with real records from the shared fixtures: a route added
 * later is checked as soon as it is in the table, and fails here until its resource has a fixture.
 */

const JSON_UTF8 = 'application/json; charset=utf-8';

/** DECISIONS: headers on every v3 response, errors included (JSON, but a success of a route answering another media type). */
function expectV3Headers(res: TestResponse, label: string, contentType = JSON_UTF8): void {
  const headers = {
    contentType: res.headers.get('content-type'),
    requestId: /^\S{8,}$/.test(res.headers.get('x-request-id') ?? ''),
    limit: /^\d+$/.test(res.headers.get('x-ratelimit-limit') ?? ''),
    remaining: /^\d+$/.test(res.headers.get('x-ratelimit-remaining') ?? ''),
    // Epoch seconds, not a delay: near now.
    reset: Math.abs(Number(res.headers.get('x-ratelimit-reset')) - Date.now() / 1000) < 3600,
  };
  expect({ label, ...headers }).toEqual({ label, contentType, requestId: true, limit: true, remaining: true, reset: true });
  expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThanOrEqual(Number(res.headers.get('x-ratelimit-limit')));
}

/** The request that succeeds on `route` for the key's own sample record. */
async function succeed(
  server: TestServer,
  apiKey: string,
  route: RouteSpec,
  query: Record<string, string | number> = {},
): Promise<{ res: TestResponse; id: number }> {
  const sample = await sampleRoute(server, apiKey, route, SERVED_ROUTES);
  const attrs = FIXTURES[route.resource.root].v3Attrs;
  const body = route.kind === 'create' || route.kind === 'update' ? { [route.resource.root]: attrs ? attrs() : {} } : undefined;
  const res = await server.request(route.method, sample.path, { apiKey, body, query });
  return { res, id: sample.id };
}

const label = (route: RouteSpec) => `${route.method} ${route.path}`;

/** Every id a feed route answers, following its `next_cursor` from the start. */
async function feedIds(server: TestServer, apiKey: string, route: RouteSpec): Promise<number[]> {
  const ids: number[] = [];
  let since: string | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await server.request('GET', routePath(route, 0), { apiKey, query: { per_page: 200, ...(since ? { since } : {}) } });
    ids.push(...(res.body.entries as Array<{ id: number }>).map((e) => e.id));
    since = res.body.pagination.next_cursor;
    if (!res.body.pagination.has_more) break;
  }
  return ids;
}
const withId = SERVED_ROUTES.filter((r) => r.path.includes(':'));
// Deletes answering a record (account notifications); not those answering nothing or ids (calendar entries),
// nor routes answering another media type than JSON records (the iCalendar feed).
const answering = SERVED_ROUTES.filter((r) => !(r.kind === 'delete' && r.deleteBody !== 'record') && r.produces === undefined);
// Lists that page (the iCalendar feed answers its first 1000 components, unpaged; webhooks one page without the envelope).
const paged = SERVED_ROUTES.filter((r) => r.kind === 'list' && r.produces === undefined && !r.entriesKey);

describe('what every v3 route shares', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  it('every route has its fixtures', () => {
    expect(missingFixtures(SERVED_ROUTES)).toEqual([]);
  });

  describe.each(SERVED_ROUTES.map((r) => [label(r), r] as const))('%s', (_, route) => {
    it('answers 200 with the v3 headers; a delete with an empty body, anything else with its record', async () => {
      const { res, id } = await succeed(server, key, route);
      expect(res.status).toBe(200);
      expectV3Headers(res, label(route), route.produces ? `${route.produces}; charset=utf-8` : JSON_UTF8);
      // v3 §4.9: a notification's delete answers it; DECISIONS: a calendar entry's the deleted ids.
      if (route.produces) expect(listedIds(route, res)).toContain(id);
      else if (route.kind === 'delete')
        expect(route.deleteBody === 'record' ? res.body.id : route.deleteBody === 'ids' ? res.body : res.text).toEqual(
          route.deleteBody === 'record' ? id : route.deleteBody === 'ids' ? [id] : route.deleteBody === 'null' ? 'null' : '',
        );
      else if (route.kind === 'list' && route.entriesKey) expect(res.body[route.entriesKey].map((e: { id: number }) => e.id)).toContain(id);
      else if (route.kind === 'list') {
        expect(Object.keys(res.body)).toEqual(['entries', 'pagination']);
        expect(res.body.entries.map((e: { id: number }) => e.id)).toContain(id);
      } else if (route.kind === 'feed') {
        expect(Object.keys(res.body)).toEqual(['entries', 'pagination']);
        expect(await feedIds(server, key, route)).toContain(id);
      } else if (route.kind === 'create') expect(res.body.id).toEqual(expect.any(Number));
      else if (route.kind === 'singleton') expect(res.body.id).toBe(id);
      else expect(res.body.id).toBe(id);
    });

    it('without a key, or with an unknown one, is a 401 {"error": "Unknown api_key"}; an unknown app_key a 401 naming it', async () => {
      const path = routePath(route, 1);
      for (const apiKey of [undefined, 'f'.repeat(64)]) {
        const res = await server.request(route.method, path, { apiKey, body: route.kind === 'create' || route.kind === 'update' ? {} : undefined });
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unknown api_key' } });
        expectV3Headers(res, `${label(route)} 401`);
      }
      const app = await server.request(route.method, path, { apiKey: key, query: { app_key: 'a'.repeat(64) } });
      expect({ status: app.status, body: app.body }).toEqual({ status: 401, body: { error: 'Unknown app_key' } });
    });
  });

  describe.each(withId.map((r) => [label(r), r] as const))('%s', (_, route) => {
    it('a missing record (or a malformed id) is a 404 with an empty body and the v3 headers', async () => {
      for (const id of [2_000_000_000, 'abc', 0, -1]) {
        const res = await server.request(route.method, routePath(route, id), {
          apiKey: key,
          body: route.kind === 'update' ? { [route.resource.root]: {} } : undefined,
        });
        expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: route.errorShape === 'error-object' ? expect.any(String) : '' });
        expectV3Headers(res, `${label(route)} 404`);
      }
    });
  });

  describe.each(answering.map((r) => [label(r), r] as const))('%s', (_, route) => {
    it('attrs=a,b answers only those keys, in the record’s own order; unknown names are ignored', async () => {
      const full = await succeed(server, key, route);
      const listing = route.kind === 'list' || route.kind === 'feed';
      const entriesOf = (body: any) => (route.entriesKey ? body[route.entriesKey] : body.entries);
      const record = listing ? entriesOf(full.res.body)[0] : full.res.body;
      const keys = Object.keys(record);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      // Asked for out of order, with an unknown name and a repeat: answered in the record's order.
      const wanted = [keys[keys.length - 1], keys[1], 'no_such_attr', keys[1]];
      const expected = keys.filter((k) => wanted.includes(k));
      expect(expected).not.toContain('id');
      const picked = await succeed(server, key, route, { attrs: wanted.join(',') });
      expect(picked.res.status).toBe(200);
      const records = listing ? entriesOf(picked.res.body) : [picked.res.body];
      expect(records.length).toBeGreaterThan(0);
      for (const r of records) expect(Object.keys(r)).toEqual(expected);
      if (route.kind === 'list' && !route.entriesKey)
        expect(Object.keys(picked.res.body.pagination)).toEqual(['page', 'per_page', 'total', 'pages', 'page_var']);
    });
  });

  describe.each(paged.map((r) => [label(r), r] as const))('%s', (_, route) => {
    it('pages by the route’s default, clamps per_page to its maximum, reads a bad page as 1', async () => {
      const paging = route.paging!;
      // One sample, then every request on the same path: the list does not change meanwhile.
      const sample = await sampleRoute(server, key, route, SERVED_ROUTES);
      const get = (query: Record<string, string | number> = {}) => server.request('GET', sample.path, { apiKey: key, query });
      const defaults = await get();
      expect(defaults.body.pagination).toEqual({ page: 1, per_page: paging.default, total: expect.any(Number), pages: expect.any(Number), page_var: 'page' });
      const { total, pages } = defaults.body.pagination;
      expect(total).toBeGreaterThan(0);
      expect(pages).toBe(Math.ceil(total / paging.default));
      expect(defaults.body.entries.length).toBe(Math.min(total, paging.default));

      const clamped = await get({ per_page: paging.max + 1 });
      expect(clamped.status).toBe(200);
      expect(clamped.body.pagination).toMatchObject({ page: 1, per_page: paging.max, total });
      for (const junk of [
        { per_page: 0, page: 0 },
        { per_page: 'lots', page: '-2' },
      ]) {
        const res = await get(junk);
        expect(res.status).toBe(200);
        expect(res.body.pagination).toMatchObject({ page: 1, per_page: paging.default, total });
      }
      const small = await get({ per_page: 1 });
      expect(small.body.entries).toHaveLength(1);
      expect(small.body.pagination).toEqual({ page: 1, per_page: 1, total, pages: total, page_var: 'page' });
      const last = await get({ per_page: 1, page: total });
      expect(last.body.entries).toHaveLength(1);
      const past = await get({ per_page: 1, page: total + 1 });
      expect(past.body).toEqual({ entries: [], pagination: { page: total + 1, per_page: 1, total, pages: total, page_var: 'page' } });
    });
  });
});
