import { request as httpRequest } from 'node:http';
import { createHash } from 'node:crypto';
import { setLogLevel } from '../../src/common/logger';
import { AccountAdmin } from '../../src/modules/accounts/account.service';
import { formEncode, openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Cross-cutting v3 behaviour from DECISIONS.md ("Paths and requests", "Responses", "Status codes
 * and bodies", "Auth and rate limit"), exercised on companies, the reference resource.
 */

const JSON_UTF8 = 'application/json; charset=utf-8';

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly body: any;
}

/** A request exactly as given (path not normalised, body and headers untouched): what fetch would not send. */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: base.hostname, port: base.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** DECISIONS: Responses: headers on every v3 response. */
function expectV3Headers(get: (name: string) => string | null | undefined, context: string): void {
  const headers = {
    context,
    type: get('content-type'),
    limit: get('x-ratelimit-limit'),
    remaining: get('x-ratelimit-remaining'),
    reset: get('x-ratelimit-reset'),
    requestId: get('x-request-id'),
  };
  expect(headers).toEqual({
    context,
    type: JSON_UTF8,
    limit: expect.stringMatching(/^\d+$/),
    remaining: expect.stringMatching(/^\d+$/),
    reset: expect.stringMatching(/^\d{10}$/),
    requestId: expect.stringMatching(/^[A-Za-z0-9._:-]{1,100}$/),
  });
  // Reset is epoch seconds, not a delay.
  expect(Math.abs(Number(headers.reset) - Date.now() / 1000)).toBeLessThan(3600);
}

describe('v3 decisions (DECISIONS.md)', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  beforeAll(async () => ({ server, account, key } = await openServerWithAccount({ timeZone: 'America/New_York' })), 60_000);
  afterAll(() => server.close());

  async function createCompany(name: string, apiKey = key): Promise<any> {
    const res = await server.request('POST', '/api/v3/companies.json', { apiKey, body: { company: { name } } });
    expect(res.status).toBe(200);
    return res.body;
  }

  describe('paths', () => {
    it('answers each route with or without `.json`, with a trailing slash and with doubled slashes', async () => {
      const company = await createCompany('Path Co');
      const q = `?api_key=${key}`;
      const listPaths = [
        '/api/v3/companies.json',
        '/api/v3/companies',
        '/api/v3/companies/',
        '/api/v3/companies.json/',
        '/api/v3//companies.json',
        '//api/v3/companies',
        '/api/v3/companies//',
        '/api/v3///companies',
      ];
      for (const path of listPaths) {
        const res = await raw(server.url, 'GET', path + q);
        expect({ path, status: res.status, pagination: !!res.body?.pagination }).toEqual({ path, status: 200, pagination: true });
      }
      const showPaths = [
        `/api/v3/companies/${company.id}.json`,
        `/api/v3/companies/${company.id}`,
        `/api/v3/companies/${company.id}/`,
        `/api/v3/companies//${company.id}.json`,
        `//api/v3//companies/${company.id}`,
      ];
      for (const path of showPaths) {
        const res = await raw(server.url, 'GET', path + q);
        expect({ path, status: res.status, id: res.body?.id }).toEqual({ path, status: 200, id: company.id });
      }
      const created = await raw(
        server.url,
        'POST',
        `/api/v3/companies${q}`,
        { 'content-type': 'application/json' },
        JSON.stringify({ company: { name: 'No Suffix' } }),
      );
      expect({ status: created.status, name: created.body?.name }).toEqual({ status: 200, name: 'No Suffix' });
      const updated = await raw(
        server.url,
        'PUT',
        `/api/v3/companies/${created.body.id}/${q}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        'company[city]=Paris',
      );
      expect({ status: updated.status, city: updated.body?.city }).toEqual({ status: 200, city: 'Paris' });
      const deleted = await raw(server.url, 'DELETE', `/api/v3//companies//${created.body.id}${q}`);
      expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 200, text: '' });
      // The JavaScript client sends the key in a header and omits the suffix.
      const js = await server.request('GET', `/api/v3/companies/${company.id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(js.status).toBe(200);
    });

    it('an unknown route under /api/v3 is a 404 {error} naming the path (not 429), with or without a key', async () => {
      const cases: Array<[string, string]> = [
        ['GET', '/api/v3/nothing_here.json'],
        ['GET', '/api/v3/companies/1/unknown_things.json'],
        ['PATCH', '/api/v3/companies/1.json'],
        ['POST', '/api/v3/companies/1.json'],
        ['DELETE', '/api/v3/companies.json'],
        ['GET', '/api/v3'],
      ];
      for (const [method, path] of cases) {
        for (const apiKey of [key, undefined, 'f'.repeat(64)]) {
          const res = await server.request(method, path, { apiKey });
          expect({ method, path, status: res.status, body: res.body }).toEqual({
            method,
            path,
            status: 404,
            body: { error: expect.stringContaining(path.replace(/\.json$/, '')) },
          });
          expect(Object.keys(res.body)).toEqual(['error']);
          expectV3Headers((n) => res.headers.get(n), `${method} ${path}`);
        }
      }
    });
  });

  describe('request bodies', () => {
    it('`Content-Type: application/json` with an empty body on GET and DELETE is normal', async () => {
      const company = await createCompany('Empty Body');
      const json = { 'content-type': 'application/json' };
      const list = await raw(server.url, 'GET', `/api/v3/companies.json?api_key=${key}`, { ...json, 'content-length': '0' });
      expect(list.status).toBe(200);
      const show = await raw(server.url, 'GET', `/api/v3/companies/${company.id}.json?api_key=${key}`, json);
      expect(show.status).toBe(200);
      const showWithBody = await raw(server.url, 'GET', `/api/v3/companies/${company.id}.json?api_key=${key}`, { ...json, 'content-length': '2' }, '  ');
      expect(showWithBody.status).toBe(200);
      const del = await raw(server.url, 'DELETE', `/api/v3/companies/${company.id}.json?api_key=${key}`, { ...json, 'content-length': '0' }, '');
      expect({ status: del.status, text: del.text }).toEqual({ status: 200, text: '' });
      // A create with an empty JSON body is a validation error, not a parse error.
      const post = await raw(server.url, 'POST', `/api/v3/companies.json?api_key=${key}`, { ...json, 'content-length': '0' }, '');
      expect({ status: post.status, body: post.body }).toEqual({ status: 422, body: [{ field: 'name', humanized_field: 'Name', msg: "can't be blank" }] });
    });

    it('booleans accept true/false/1/0 (strings too); integers accept numeric strings', async () => {
      const other = await account.addUser({ firstName: 'Ivo' });
      const res = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name: 'Strings', owner_id: String(other.id) } } });
      expect({ status: res.status, owner_id: res.body.owner_id }).toEqual({ status: 200, owner_id: other.id });
      const name = `Bool ${Date.now()}`;
      await createCompany(name);
      for (const flag of [true, 'true', 1, '1']) {
        const dup = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name }, check_for_duplicates: flag } });
        expect({ flag, status: dup.status }).toEqual({ flag, status: 422 });
      }
      for (const flag of [false, 'false', 0, '0']) {
        const ok = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name }, check_for_duplicates: flag } });
        expect({ flag, status: ok.status }).toEqual({ flag, status: 200 });
      }
      const bad = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name: 'X', owner_id: 'abc' } } });
      expect({ status: bad.status, body: bad.body }).toEqual({ status: 422, body: [{ field: 'owner_id', humanized_field: 'Owner', msg: expect.any(String) }] });
    });

    it('an owner_id that is no user of the account is a 422 naming owner_id', async () => {
      const foreign = await server.createAccount();
      const res = await server.request('POST', '/api/v3/companies.json', {
        apiKey: key,
        body: { company: { name: 'Foreign Owner', owner_id: foreign.admin.id } },
      });
      expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: [{ field: 'owner_id', humanized_field: 'Owner', msg: expect.any(String) }] });
    });

    it('nesting too deep is a clear 422 naming the parameter (form and JSON)', async () => {
      const form = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: 'company[name]=Deep&company[a][b][c][d][e][f][g]=1' });
      expect(form.status).toBe(422);
      expect(form.body).toEqual([expect.objectContaining({ field: expect.stringContaining('company[a]'), msg: expect.stringContaining('nested too deeply') })]);
      let deep: unknown = 1;
      for (let i = 0; i < 50; i++) deep = { x: deep };
      const json = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name: 'Deep', extra: deep } } });
      expect(json.status).toBe(422);
      expect(json.body).toEqual([expect.objectContaining({ msg: expect.stringContaining('nested too deeply') })]);
      const query = await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { 'conditions[a][b][c][d][e][f][g]': '1' } });
      expect(query.status).toBe(422);
      expectV3Headers((n) => query.headers.get(n), 'deep query');
    });

    it('too many parameters or too long a list is a 413 {error}', async () => {
      const many = ['company[name]=Many', ...Array.from({ length: 1001 }, (_, i) => `p${i}=1`)].join('&');
      const form = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: many });
      expect({ status: form.status, body: form.body }).toEqual({ status: 413, body: { error: expect.stringContaining('parameters') } });
      expectV3Headers((n) => form.headers.get(n), 'too many params');
      const list = await server.request('POST', '/api/v3/companies.json', {
        apiKey: key,
        body: { company: { name: 'List', custom_fields: { custom_label_1: Array.from({ length: 1001 }, () => 1) } } },
      });
      expect({ status: list.status, body: list.body }).toEqual({ status: 413, body: { error: expect.any(String) } });
      const query = await server.request('GET', `/api/v3/companies.json?${Array.from({ length: 1001 }, (_, i) => `q${i}=1`).join('&')}`, { apiKey: key });
      expect({ status: query.status, body: query.body }).toEqual({ status: 413, body: { error: expect.any(String) } });
    });

    it('a body larger than the limit is a 413 {error}; invalid JSON is a 400 {error}', async () => {
      const big = JSON.stringify({ company: { name: 'Big', description: 'x'.repeat(1024 * 1024 + 10) } });
      const res = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: big, contentType: 'application/json' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 413, body: { error: expect.any(String) } });
      expectV3Headers((n) => res.headers.get(n), '413');
      const broken = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: '{"company": {"name": ', contentType: 'application/json' });
      expect({ status: broken.status, body: broken.body }).toEqual({ status: 400, body: { error: expect.any(String) } });
      expectV3Headers((n) => broken.headers.get(n), '400');
      // Nothing was created by either.
      const list = await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { 'conditions[company_name]': 'Big' } });
      expect(list.body.entries).toEqual([]);
    });
  });

  describe('response headers', () => {
    it('X-Ratelimit-*, X-Request-Id and `application/json; charset=utf-8` are on every v3 response', async () => {
      const company = await createCompany('Headers Co');
      const responses = {
        list: await server.request('GET', '/api/v3/companies.json', { apiKey: key }),
        show: await server.request('GET', `/api/v3/companies/${company.id}.json`, { apiKey: key }),
        create: await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name: 'H2' } } }),
        update: await server.request('PUT', `/api/v3/companies/${company.id}.json`, { apiKey: key, body: { company: { city: 'X' } } }),
        invalid: await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: { company: { name: '' } } }),
        missing: await server.request('GET', '/api/v3/companies/2147483000.json', { apiKey: key }),
        unknownRoute: await server.request('GET', '/api/v3/nope.json', { apiKey: key }),
        noKey: await server.request('GET', '/api/v3/companies.json'),
        badKey: await server.request('GET', '/api/v3/companies.json', { apiKey: 'x'.repeat(64) }),
        delete: await server.request('DELETE', `/api/v3/companies/${company.id}.json`, { apiKey: key }),
      };
      for (const [name, res] of Object.entries(responses)) expectV3Headers((n) => res.headers.get(n), name);
      expect(Object.fromEntries(Object.entries(responses).map(([n, r]) => [n, r.status]))).toEqual({
        list: 200,
        show: 200,
        create: 200,
        update: 200,
        invalid: 422,
        missing: 404,
        unknownRoute: 404,
        noKey: 401,
        badKey: 401,
        delete: 200,
      });
      // A charged request shows the user's own bucket.
      expect(responses.list.headers.get('x-ratelimit-limit')).toBe('10000');
    });

    it('a sane X-Request-Id from the caller is echoed; otherwise one is made', async () => {
      const given = await server.request('GET', '/api/v3/companies.json', { apiKey: key, headers: { 'x-request-id': 'trace-abc.123' } });
      expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
      const insane = await server.request('GET', '/api/v3/companies.json', { apiKey: key, headers: { 'x-request-id': 'bad id <script>' } });
      expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('authentication', () => {
    it('a missing or unknown api_key is 401 {"error": "Unknown api_key"}', async () => {
      const oneCharOff = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
      for (const apiKey of [undefined, '', 'short', 'f'.repeat(64), oneCharOff, 'x'.repeat(500)]) {
        const res = await server.request('GET', '/api/v3/companies.json', apiKey === undefined ? {} : { query: { api_key: apiKey } });
        expect({ status: res.status, text: res.text }).toEqual({ status: 401, text: '{"error":"Unknown api_key"}' });
      }
      const attempts: Array<Record<string, string>> = [
        { authorization: 'Bearer nope-nope-nope-nope' },
        { 'x-api-key': 'f'.repeat(64) },
        { authorization: 'Basic abc' },
      ];
      for (const headers of attempts) {
        const res = await server.request('POST', '/api/v3/companies.json', { headers, body: { company: { name: 'Nope' } } });
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unknown api_key' } });
      }
    });

    it('an unknown app_key is 401 {"error": "Unknown app_key"}; a registered one works', async () => {
      const unknown = await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { app_key: 'a'.repeat(64) } });
      expect({ status: unknown.status, text: unknown.text }).toEqual({ status: 401, text: '{"error":"Unknown app_key"}' });
      const appKey = await new AccountAdmin(server.orm.em.fork()).createApp('Decisions test app');
      const known = await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { app_key: appKey } });
      expect(known.status).toBe(200);
      // The app key never stands in for a user key.
      const alone = await server.request('GET', '/api/v3/companies.json', { query: { app_key: appKey } });
      expect({ status: alone.status, body: alone.body }).toEqual({ status: 401, body: { error: 'Unknown api_key' } });
    });

    it('the key is accepted as `api_key`, `Authorization: Bearer` and `X-Api-Key`, acting as that user', async () => {
      const user = await account.addUser({ firstName: 'Hedda', lastName: 'Header' });
      const viaQuery = await server.request('POST', '/api/v3/companies.json', { apiKey: user.apiKey, body: { company: { name: 'Q' } } });
      const viaBearer = await server.request('POST', '/api/v3/companies.json', {
        headers: { authorization: `Bearer ${user.apiKey}` },
        body: { company: { name: 'B' } },
      });
      const viaHeader = await server.request('POST', '/api/v3/companies.json', { headers: { 'x-api-key': user.apiKey }, body: { company: { name: 'H' } } });
      const viaForm = await server.request('POST', '/api/v3/companies.json', {
        headers: { 'x-api-key': user.apiKey },
        body: formEncode({ company: { name: 'F' } }),
      });
      // An empty `api_key=` in the URL (a client's unset variable) does not hide the header's key.
      const emptyParam = await server.request('POST', '/api/v3/companies.json?api_key=', {
        headers: { authorization: `Bearer ${user.apiKey}` },
        body: { company: { name: 'E' } },
      });
      for (const res of [viaQuery, viaBearer, viaHeader, viaForm, emptyParam])
        expect({ status: res.status, owner: res.body.owner_id }).toEqual({ status: 200, owner: user.id });
    });

    it('keys are stored hashed, never in clear', async () => {
      const rows = await server.orm.em
        .fork()
        .getConnection()
        .execute<Array<Record<string, unknown>>>('select * from users where id = ?', [account.admin.id], 'all');
      expect(rows).toHaveLength(1);
      expect(Object.values(rows[0]).map(String)).not.toContain(key);
      expect(rows[0].api_key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    });
  });

  describe('internal errors', () => {
    it('answer 500 {"error": "Internal error", "request_id"} without a stack, and logs never hold a credential', async () => {
      // A user whose stored zone is unknown cannot have datetimes formatted: a server-side data problem.
      const broken = await account.addUser({ firstName: 'Zed' });
      await createCompany('Seen By Broken');
      await server.orm.em.fork().getConnection().execute(`update users set time_zone = 'Mars/Olympus_Mons' where id = ?`, [broken.id]);
      const writes: string[] = [];
      const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
        writes.push(String(chunk));
        return true;
      });
      setLogLevel('debug');
      let res;
      try {
        res = await server.request('GET', '/api/v3/companies.json', { apiKey: broken.apiKey, headers: { 'x-request-id': 'req-500-test' } });
        await server.request('GET', '/api/v3/companies.json', { headers: { authorization: `Bearer ${broken.apiKey}` } });
        await server.request('GET', '/api/v3/companies.json', { headers: { 'x-api-key': broken.apiKey } });
      } finally {
        setLogLevel('error');
        spy.mockRestore();
      }
      expect({ status: res.status, text: res.text }).toEqual({ status: 500, text: '{"error":"Internal error","request_id":"req-500-test"}' });
      expectV3Headers((n) => res.headers.get(n), '500');
      expect(res.headers.get('x-request-id')).toBe('req-500-test');
      // It was logged (with the request id) and no line carries the key.
      expect(writes.join('')).toContain('req-500-test');
      expect(writes.join('')).not.toContain(broken.apiKey);
    });
  });
});
