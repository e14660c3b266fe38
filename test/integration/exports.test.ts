import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { Client } from 'pg';
import { fixtures } from '../support/fixtures';
import { documentStorage } from '../../src/modules/documents/storage';
import { seedCustomField } from '../support/custom-fields';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';
import { Visibility } from '../../src/modules/users/user.entity';

/**
 * Bulk exports (issue 27 §2), with a real worker in the server: a list's records (the starting
 * user's view, with the list's filter) written from one snapshot to CSV or JSONL, downloadable by
 * an unguessable link without a key; progress, cancel, limits, the change-feed cursor.
 */

const EXPORT_FIELDS = `databaseId state resource format rowsTotal rowsExported failure downloadUrl expiresAt changesCursor finishedAt estimatedSecondsLeft`;
const START = `mutation($input: StartExportInput!) { startExport(input: $input) { export { ${EXPORT_FIELDS} } userErrors { field code message } } }`;
const READ = `query($id: ID!) { export(id: $id) { ${EXPORT_FIELDS} } }`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ RUN_WORKER: 'true', JOB_POLL_INTERVAL_MS: '200', EXPORT_MAX_ROWS: '50' });
});
afterAll(async () => {
  await server.close();
});

async function start(apiKey: string, input: Record<string, unknown>) {
  const res = await server.graphql(apiKey, START, { input });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.startExport as { export: Record<string, any> | null; userErrors: Array<{ field: string[]; code: string; message: string }> };
}

async function finished(apiKey: string, id: number): Promise<Record<string, any>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await server.graphql(apiKey, READ, { id: String(id) });
    const found = res.body.data.export;
    if (['DONE', 'FAILED', 'CANCELLED'].includes(found.state)) return found;
    if (Date.now() > deadline) throw new Error(`export ${id} still ${found.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function exported(apiKey: string, input: Record<string, unknown>): Promise<{ export: Record<string, any>; body: string; res: Response }> {
  const started = await start(apiKey, input);
  expect(started.userErrors).toEqual([]);
  expect(started.export!.state).toBe('QUEUED');
  const done = await finished(apiKey, started.export!.databaseId);
  expect(done).toMatchObject({ state: 'DONE', failure: null });
  const res = await fetch(done.downloadUrl);
  return { export: done, res, body: await res.text() };
}

async function person(account: { apiKey: string }, input: Record<string, unknown>): Promise<number> {
  const res = await server.graphql(
    account.apiKey,
    `mutation($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } userErrors { message } } }`,
    {
      input,
    },
  );
  expect(res.body.data.createPerson.userErrors).toEqual([]);
  return res.body.data.createPerson.person.databaseId;
}

describe('exporting people', () => {
  let account: TestAccount;
  let admin: { apiKey: string };
  let label: string;
  let ids: number[];

  beforeAll(async () => {
    account = await server.createAccount({ timeZone: 'America/New_York' });
    admin = account.admin;
    label = (await seedCustomField(server, account.accountId, 'person', 'text', 'Shoe size')).label;
    ids = [
      await person(admin, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test', workCity: 'London', customFields: { [label]: '38, narrow' } }),
      await person(admin, { firstName: 'Grace', lastName: 'Hopper "Amazing"', email: 'grace@example.test', workCity: 'Arlington', type: 'LEAD' }),
      await person(admin, { lastName: 'Turing', summary: 'line one\nline two' }),
    ];
  });

  it('writes a CSV of v3 field names, one column per custom field, the v3 datetimes, that a CSV reader reads back', async () => {
    const { export: done, body, res } = await exported(admin.apiKey, { resource: 'PEOPLE' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="people-export-\d+\.csv"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(done).toMatchObject({ rowsTotal: 3, rowsExported: 3, resource: 'PEOPLE', format: 'CSV' });
    expect(done.downloadUrl).toMatch(/\/exports\/download\/[A-Za-z0-9_-]{43}$/);
    const rows = parse(body, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => Number(r.id))).toEqual(ids);
    expect(Object.keys(rows[0])).toEqual(
      expect.arrayContaining(['id', 'first_name', 'last_name', 'email', 'work_city', 'user_id', 'type', 'created_at', 'updated_at', label]),
    );
    expect(Object.keys(rows[0])).not.toContain('custom_fields');
    expect(rows[0]).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      work_city: 'London',
      type: 'Contact',
      [label]: '38, narrow',
    });
    expect(rows[1]).toMatchObject({ last_name: 'Hopper "Amazing"', type: 'Lead', [label]: '' });
    expect(rows[2]).toMatchObject({ first_name: '', summary: 'line one\nline two' });
    // v3 datetimes, in the user's zone.
    expect(rows[0].created_at).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} -0[45]00$/);
    // The same values the v3 show route answers.
    const shown = await server.v3(admin.apiKey).get(`/people/${ids[0]}.json`);
    for (const key of ['first_name', 'last_name', 'email', 'created_at', 'updated_at', 'type', 'user_id'])
      expect(rows[0][key]).toBe(String(shown.body[key] ?? ''));
  });

  it('writes JSONL, one v3 record per line, custom fields as the v3 object', async () => {
    const { body, res } = await exported(admin.apiKey, { resource: 'PEOPLE', format: 'JSONL' });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines).toHaveLength(3);
    const shown = (await server.v3(admin.apiKey).get(`/people/${ids[0]}.json`)).body;
    expect(lines[0]).toMatchObject({
      id: ids[0],
      first_name: 'Ada',
      custom_fields: { [label]: '38, narrow' },
      created_at: shown.created_at,
      user_id: shown.user_id,
    });
    for (const [key, value] of Object.entries(lines[0])) expect([key, value]).toEqual([key, shown[key]]);
  });

  it("holds exactly what the user's list shows with the filter", async () => {
    const { body } = await exported(admin.apiKey, { resource: 'PEOPLE', filter: { people: { workCity: { eq: 'London' } } } });
    expect((parse(body, { columns: true }) as Array<Record<string, string>>).map((r) => Number(r.id))).toEqual([ids[0]]);
  });

  it('shows a user who sees only their own records only theirs', async () => {
    const own = await account.addUser({ visibility: Visibility.OWN });
    const mine = await person(own, { lastName: 'Mine' });
    const { body } = await exported(own.apiKey, { resource: 'PEOPLE' });
    expect((parse(body, { columns: true }) as Array<Record<string, string>>).map((r) => Number(r.id))).toEqual([mine]);
  });

  it('refuses a filter of another resource, and one that cannot run, as user errors', async () => {
    const other = await start(admin.apiKey, { resource: 'PEOPLE', filter: { deals: { name: { eq: 'x' } } } });
    expect(other).toEqual({
      export: null,
      userErrors: [{ field: ['input', 'filter', 'deals'], code: 'INVALID', message: expect.stringContaining('filter.people') }],
    });
    // Nested deeper than a list's filter may be (5 levels).
    let deep: Record<string, unknown> = { lastName: { eq: 'x' } };
    for (let i = 0; i < 7; i++) deep = { not: deep };
    const bad = await start(admin.apiKey, { resource: 'PEOPLE', filter: { people: deep } });
    expect(bad.export).toBeNull();
    expect(bad.userErrors[0].code).toBe('INVALID');
  });

  it('writes the records in the order its list takes (ties by databaseId); an order of another resource, or too many keys, is a user error', async () => {
    const { body } = await exported(admin.apiKey, {
      resource: 'PEOPLE',
      filter: { people: { databaseId: { in: ids } } },
      orderBy: { people: [{ field: 'LAST_NAME', direction: 'DESC' }] },
    });
    expect((parse(body, { columns: true }) as Array<Record<string, string>>).map((r) => r.last_name)).toEqual(['Turing', 'Lovelace', 'Hopper "Amazing"']);
    // Nulls as the list places them (ascending: last), then by databaseId.
    const byCity = await exported(admin.apiKey, {
      resource: 'PEOPLE',
      format: 'JSONL',
      filter: { people: { databaseId: { in: ids } } },
      orderBy: { people: [{ field: 'WORK_CITY' }] },
    });
    const lines = byCity.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => l.id)).toEqual([ids[1], ids[0], ids[2]]);
    const other = await start(admin.apiKey, { resource: 'PEOPLE', orderBy: { deals: [{ field: 'NAME' }] } });
    expect(other).toEqual({
      export: null,
      userErrors: [{ field: ['input', 'orderBy', 'deals'], code: 'INVALID', message: expect.stringContaining('orderBy.people') }],
    });
    const many = await start(admin.apiKey, { resource: 'PEOPLE', orderBy: { people: Array.from({ length: 9 }, () => ({ field: 'LAST_NAME' })) } });
    expect(many.export).toBeNull();
    expect(many.userErrors).toEqual([expect.objectContaining({ field: ['input', 'orderBy', 'people'], code: 'INVALID' })]);
  });

  it('a link not issued, tampered or of another length answers 404', async () => {
    const { export: done } = await exported(admin.apiKey, { resource: 'PEOPLE' });
    const url = new URL(done.downloadUrl as string);
    const token = url.pathname.split('/').pop()!;
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const path of [`/exports/download/${tampered}`, `/exports/download/${token}x`, '/exports/download/nothing']) {
      const res = await fetch(new URL(path, server.url));
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});

const csvRows = (body: string) => parse(body, { columns: true }) as Array<Record<string, string>>;

describe('exporting every list', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await server.createAccount();
    const key = account.admin.apiKey;
    const companyId = await fixtures.company(server, key);
    const personId = await fixtures.person(server, key, { companyId });
    await fixtures.deal(server, key, { companyId });
    await fixtures.note(server, key, { personId });
    await fixtures.calendarEntry(server, key);
  });

  it.each([
    ['DEALS', '/deals.json'],
    ['COMPANIES', '/companies.json'],
    ['NOTES', '/notes.json'],
    ['CALENDAR_ENTRIES', '/calendar_entries.json'],
    ['PEOPLE', '/people.json'],
  ])('%s: the records of the v3 list, under v3 keys with the values v3 shows', async (resource, path) => {
    const key = account.admin.apiKey;
    const list = (await server.v3(key).get(path, { per_page: 100 })).body;
    const entries = (list.entries ?? list) as Array<Record<string, unknown>>;
    expect(entries.length).toBeGreaterThan(0);
    const { body } = await exported(key, { resource, format: 'JSONL' });
    const lines = body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.id).sort()).toEqual(entries.map((e) => e.id).sort());
    const shown = entries.find((e) => e.id === lines[0].id)!;
    expect(Object.keys(lines[0]).length).toBeGreaterThan(3);
    for (const [k, v] of Object.entries(lines[0])) expect([k, v]).toEqual([k, shown[k]]);
    const csv = await exported(key, { resource });
    expect(
      csvRows(csv.body)
        .map((r) => Number(r.id))
        .sort(),
    ).toEqual(entries.map((e) => e.id).sort());
  });
});

describe('what an export reads', () => {
  let account: TestAccount;
  let key: string;
  let ids: number[];

  beforeAll(async () => {
    account = await server.createAccount();
    key = account.admin.apiKey;
    ids = [
      await fixtures.person(server, key, { lastName: 'Alpha', workCity: 'Berlin' }),
      await fixtures.person(server, key, { lastName: 'Beta', workCity: 'Paris' }),
      await fixtures.person(server, key, { lastName: 'Gamma', workCity: 'Berlin', type: 'LEAD' }),
    ];
  });

  it("takes a saved search's conditions, besides the filter", async () => {
    const searchId = await fixtures.search(server, key, { searchType: 'PEOPLE', query: { person_city: ['Berlin'] } });
    const { body } = await exported(key, { resource: 'PEOPLE', savedSearchId: String(searchId) });
    expect(csvRows(body).map((r) => Number(r.id))).toEqual([ids[0], ids[2]]);
    const both = await exported(key, { resource: 'PEOPLE', savedSearchId: String(searchId), filter: { people: { type: { eq: 'LEAD' } } } });
    expect(csvRows(both.body).map((r) => Number(r.id))).toEqual([ids[2]]);
    const dealSearch = await fixtures.search(server, key, { searchType: 'DEALS' });
    const wrong = await start(key, { resource: 'PEOPLE', savedSearchId: String(dealSearch) });
    expect(wrong).toEqual({
      export: null,
      userErrors: [{ field: ['input', 'savedSearchId'], code: 'NOT_FOUND', message: expect.stringContaining(String(dealSearch)) }],
    });
  });

  it('takes v3 conditions, translated as the v3 list translates them', async () => {
    const { body } = await exported(key, { resource: 'PEOPLE', v3Conditions: { person_city: 'par', person_type: 'Contact' } });
    expect(csvRows(body).map((r) => Number(r.id))).toEqual([ids[1]]);
    const unknown = await start(key, { resource: 'PEOPLE', v3Conditions: { no_such_condition: 'x' } });
    expect(unknown.export).toBeNull();
    expect(unknown.userErrors).toEqual([{ field: ['input', 'v3Conditions'], code: 'INVALID', message: expect.stringContaining('no_such_condition') }]);
  });

  it('needs the read scope of the resource, for starting and for reading', async () => {
    const scoped = await server.graphql(
      key,
      `mutation { createApiKey(input: { name: "deals only", scopes: ["deals:read"] }) { apiKey { secret } userErrors { message } } }`,
    );
    const dealsOnly = scoped.body.data.createApiKey.apiKey.secret as string;
    const refused = await server.graphql(dealsOnly, START, { input: { resource: 'PEOPLE' } });
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', scope: 'people:read' } });
    const { export: done } = await exported(key, { resource: 'PEOPLE' });
    const read = await server.graphql(dealsOnly, READ, { id: String(done.databaseId) });
    expect(read.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', scope: 'people:read' } });
    const listed = await server.graphql(dealsOnly, `{ exports(first: 50) { nodes { databaseId } } }`);
    expect(listed.body.data.exports.nodes).toEqual([]);
    const mine = await server.graphql(key, `{ exports(first: 50) { nodes { databaseId resource } totalCount } }`);
    expect(mine.body.data.exports.nodes[0]).toEqual({ databaseId: done.databaseId, resource: 'PEOPLE' });
  });

  it('gives the change-feed cursor of its snapshot: a change in flight then is read from it, one before is not', async () => {
    // A transaction open while the export reads: its change has an id from before the snapshot but commits after it.
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`update people set first_name = 'InFlight' where id = $1`, [ids[1]]);
      const { export: done, body } = await exported(key, { resource: 'PEOPLE', format: 'JSONL' });
      const shownThen = body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => r.id === ids[1])!;
      expect(shownThen.first_name).not.toBe('InFlight');
      await client.query('commit');
      await fixtures.person(server, key, { lastName: 'After' });
      const feed = await server.graphql(key, `query($after: String) { changes(after: $after, first: 200) { nodes { action recordDatabaseId } } }`, {
        after: done.changesCursor,
      });
      expect(feed.body.errors).toBeUndefined();
      const seen = feed.body.data.changes.nodes as Array<{ action: string; recordDatabaseId: number }>;
      expect(seen).toContainEqual({ action: 'UPDATE', recordDatabaseId: ids[1] });
      expect(seen.filter((c) => c.action === 'CREATE').length).toBe(1);
      expect(seen).not.toContainEqual({ action: 'CREATE', recordDatabaseId: ids[0] });
    } finally {
      await client.end();
    }
  });
});

describe('limits, cancel and expiry', () => {
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    account = await server.createAccount();
    key = account.admin.apiKey;
  });

  it('fails an export of more rows than EXPORT_MAX_ROWS, saying so', async () => {
    await server.sql(
      `insert into people (account_id, owner_id, created_by_id, last_name, created_at, updated_at) select ?, ?, ?, 'Bulk ' || g, now(), now() from generate_series(1, 60) g`,
      [account.accountId, account.admin.id, account.admin.id],
    );
    const started = await start(key, { resource: 'PEOPLE' });
    const done = await finished(key, started.export!.databaseId);
    expect(done).toMatchObject({ state: 'FAILED', downloadUrl: null, failure: expect.stringContaining('more than the 50') });
  });

  it('cancels a queued export at once; a finished one stays as it was', async () => {
    const started = await start(key, { resource: 'NOTES' });
    const cancelled = await server.graphql(key, `mutation($id: ID!) { cancelExport(id: $id) { export { state downloadUrl } userErrors { code } } }`, {
      id: String(started.export!.databaseId),
    });
    expect(cancelled.body.data.cancelExport).toEqual({ export: { state: 'CANCELLED', downloadUrl: null }, userErrors: [] });
    const after = await finished(key, started.export!.databaseId);
    expect(after.state).toBe('CANCELLED');
    const missing = await server.graphql(key, `mutation { cancelExport(id: "999999") { export { state } userErrors { code field } } }`);
    expect(missing.body.data.cancelExport).toEqual({ export: null, userErrors: [{ code: 'NOT_FOUND', field: ['id'] }] });
  });

  it('an expired link answers 404, and the sweep removes its file', async () => {
    const { export: done } = await exported(key, { resource: 'NOTES' });
    const [row] = await server.sql<{ storage_key: string }>(`select storage_key from exports where id = ?`, [done.databaseId]);
    expect(row.storage_key).toMatch(/^exports\//);
    await server.sql(`update exports set expires_at = now() - interval '1 second' where id = ?`, [done.databaseId]);
    expect((await fetch(done.downloadUrl)).status).toBe(404);
    const read = await server.graphql(key, READ, { id: String(done.databaseId) });
    expect(read.body.data.export.downloadUrl).toBeNull();
    const { removeExpiredExports } = await import('../../src/modules/exports');
    const storage = documentStorage()!;
    expect(await removeExpiredExports(server.orm.em.fork(), storage)).toBeGreaterThanOrEqual(1);
    const [gone] = await server.sql<{ storage_key: string | null }>(`select storage_key from exports where id = ?`, [done.databaseId]);
    expect(gone.storage_key).toBeNull();
    expect(await storage.get(row.storage_key)).toBeNull();
  });
});

describe('crm export (the client the CLI runs)', () => {
  it('starts, follows and downloads an export to --out, printing what it wrote; a refused filter is an error naming it', async () => {
    const { runExportCommand, ExportCommandError } = await import('../../src/cli/export-command');
    const account = await server.createAccount();
    const key = account.admin.apiKey;
    const berlin = await fixtures.person(server, key, { lastName: 'Cli', workCity: 'Berlin' });
    await fixtures.person(server, key, { lastName: 'Other', workCity: 'Rome' });
    const dir = await mkdtemp(join(tmpdir(), 'crm-export-'));
    const out = join(dir, 'people.csv');
    const printed = await runExportCommand({
      resource: 'people',
      format: 'csv',
      filter: { workCity: { eq: 'Berlin' } },
      out,
      url: server.url,
      key,
      pollMs: 50,
    });
    expect(printed).toMatchObject({ rows: 1, file: out, changes_cursor: expect.any(String) });
    expect(csvRows(await readFile(out, 'utf8')).map((r) => Number(r.id))).toEqual([berlin]);
    const linked = await runExportCommand({ resource: 'people', format: 'jsonl', url: server.url, key, pollMs: 50 });
    expect(linked.download_url).toMatch(/\/exports\/download\//);
    await expect(runExportCommand({ resource: 'people', format: 'csv', filter: { nope: 1 }, url: server.url, key })).rejects.toThrow(ExportCommandError);
    await expect(runExportCommand({ resource: 'people', format: 'csv', url: server.url, key: 'wrong' })).rejects.toThrow(ExportCommandError);
  });
});

describe('a worker that dies', () => {
  // A server of its own without a worker: nothing but this test runs these exports.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes every record once, in order, over many batches', async () => {
    const { runExport } = await import('../../src/modules/exports');
    const { exportPlan } = await import('../../src/jobs/export-columns');
    const account = await server.createAccount();
    const names = ['Eve', 'Bob', 'Dan', 'Ann', 'Cid', 'Fay', 'Gus'];
    for (const lastName of names) await fixtures.person(server, account.admin.apiKey, { lastName });
    const deps = {
      orm: server.orm,
      storage: documentStorage()!,
      leaseSeconds: 60,
      maxRows: 1000,
      linkTtlHours: 1,
      maxAttempts: 3,
      plan: exportPlan,
      batchSize: 2,
    };
    for (const [order, expected] of [
      [null, names],
      [[{ field: 'last_name', direction: 'DESC' }], [...names].sort().reverse()],
    ] as const) {
      const [{ id }] = await server.sql<{ id: number }>(
        `insert into exports (account_id, user_id, resource, format, filter, order_by) values (?, ?, 'people', 'csv', 'null', ?::jsonb) returning id`,
        [account.accountId, account.admin.id, order === null ? null : JSON.stringify(order)],
      );
      expect(await runExport(deps, id)).toMatchObject({ status: 'done', rows: names.length });
      const [row] = await server.sql<{ storage_key: string }>(`select storage_key from exports where id = ?`, [id]);
      const stored = await documentStorage()!.get(row.storage_key);
      const chunks: Buffer[] = [];
      for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
      const rows = parse(Buffer.concat(chunks).toString('utf8'), { columns: true }) as Array<Record<string, string>>;
      expect(rows.map((r) => r.last_name)).toEqual(expected);
    }
  });

  it("leaves its export to the lease's end, then another run starts it over; claims used up fail it; a worker shutting down gives it back", async () => {
    const { runExport, dueExportIds } = await import('../../src/modules/exports');
    const { exportPlan } = await import('../../src/jobs/export-columns');
    const account = await server.createAccount();
    const key = account.admin.apiKey;
    await fixtures.person(server, key, { lastName: 'Survivor' });
    const deps = {
      orm: server.orm,
      storage: documentStorage()!,
      leaseSeconds: 60,
      maxRows: 1000,
      linkTtlHours: 1,
      maxAttempts: 3,
      plan: exportPlan,
      batchSize: 1,
    };
    const insert = async () =>
      (
        await server.sql<{ id: number }>(
          `insert into exports (account_id, user_id, resource, format, filter) values (?, ?, 'people', 'csv', 'null') returning id`,
          [account.accountId, account.admin.id],
        )
      )[0].id;
    const id = await insert();
    // A worker claimed it and was killed: attempts counted, the lease still running.
    await server.sql(`update exports set state = 'running', attempts = 1, lease_until = now() + interval '1 hour' where id = ?`, [id]);
    expect(await runExport(deps, id)).toEqual({ status: 'skipped' });
    expect(await dueExportIds(server.orm.em.fork(), 10_000)).not.toContain(id);
    await server.sql(`update exports set lease_until = now() - interval '1 second' where id = ?`, [id]);
    expect(await dueExportIds(server.orm.em.fork(), 10_000)).toContain(id);
    expect(await runExport(deps, id)).toMatchObject({ status: 'done', rows: 1 });
    const [done] = await server.sql(`select state, attempts, rows_exported, download_token is not null as linked from exports where id = ?`, [id]);
    expect(done).toEqual({ state: 'done', attempts: 2, rows_exported: 1, linked: true });

    const doomed = await insert();
    await server.sql(`update exports set state = 'running', attempts = 3, lease_until = now() - interval '1 second' where id = ?`, [doomed]);
    expect(await runExport(deps, doomed)).toEqual({ status: 'failed', reason: 'the export did not finish (tried 3 times)' });
    expect(await runExport(deps, doomed)).toEqual({ status: 'skipped' });

    // Cancelled while it runs: the worker stops at its next batch, and no file is kept.
    const running = await insert();
    const written: string[] = [];
    const storage = documentStorage()!;
    const cancelling = {
      ...deps,
      storage: {
        ...storage,
        get: storage.get.bind(storage),
        delete: storage.delete.bind(storage),
        put: storage.put.bind(storage),
        putStream: async (storageKey: string, body: AsyncIterable<Buffer | string>) => {
          written.push(storageKey);
          async function* cancelAfterFirst() {
            let first = true;
            for await (const chunk of body) {
              yield chunk;
              if (first) await server.sql(`update exports set cancel_requested = true, state = 'cancelled' where id = ?`, [running]);
              first = false;
            }
          }
          return storage.putStream(storageKey, cancelAfterFirst());
        },
      },
    };
    await fixtures.person(server, key, { lastName: 'Second' });
    expect(await runExport(cancelling, running)).toEqual({ status: 'cancelled' });
    expect(written).toHaveLength(1);
    expect(await storage.get(written[0])).toBeNull();
    const [stopped] = await server.sql(`select state, storage_key, download_token from exports where id = ?`, [running]);
    expect(stopped).toEqual({ state: 'cancelled', storage_key: null, download_token: null });

    const stopping = await insert();
    const abort = new AbortController();
    abort.abort();
    expect(await runExport(deps, stopping, abort.signal)).toEqual({ status: 'skipped' });
    const [back] = await server.sql(`select state, attempts, lease_until from exports where id = ?`, [stopping]);
    expect(back).toEqual({ state: 'running', attempts: 0, lease_until: null });
    expect(await dueExportIds(server.orm.em.fork(), 10_000)).toContain(stopping);
  });
});
