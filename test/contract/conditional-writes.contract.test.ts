import { getNamedType, isObjectType } from 'graphql';
import { createSchema } from '../../src/app/schema';
import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { FIXTURES, sampleRoute, updateInputFor } from '../support/fixtures';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * Conditional writes (issue 26 §2): every update and delete mutation of a versioned record takes
 * `expectedVersion` and refuses a stale one (STALE, nothing written); every v3 PUT and DELETE of a
 * record with a show route takes If-Match and refuses a tag that is not the record's current one
 * (412, nothing written); two writers racing with one ETag: one wins; an account can require
 * preconditions (428 / PRECONDITION_REQUIRED). Both lists come from the schema and the route table:
 * a resource added later is covered by adding its fixture.
 */

const schema = createSchema();
/** `CalendarEntry` → `calendar_entry` (the fixtures' keys). */
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const versionedTypes = new Set(
  Object.values(schema.getTypeMap())
    .filter((t) => isObjectType(t) && t.getInterfaces().some((i) => i.name === 'Versioned'))
    .map((t) => t.name),
);
const conditional = Object.values(schema.getMutationType()!.getFields())
  .map((field) => ({ field, m: /^(update|delete)([A-Z]\w*)$/.exec(field.name) }))
  .filter(({ m }) => m !== null && versionedTypes.has(m[2]))
  .map(({ field, m }) => ({ name: field.name, verb: m![1] as 'update' | 'delete', type: m![2], field }));
const showPaths = new Set(SERVED_ROUTES.filter((r) => r.kind === 'show').map((r) => r.path));
const writeRoutes = SERVED_ROUTES.filter((r) => (r.kind === 'update' || r.kind === 'delete') && showPaths.has(r.path));

describe('conditional writes', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const versionOf = async (type: string, id: number): Promise<number | null> => {
    const table = { Conversation: 'notes', Person: 'people', Company: 'companies', CalendarEntry: 'calendar_entries' }[type] ?? `${snake(type)}s`;
    const rows = await server.sql<{ v: number }>(`select lock_version as v from "${table}" where id = ?`, [id]);
    return rows.length === 0 ? null : Number(rows[0].v);
  };

  it('every update and delete of a versioned record takes expectedVersion, and no other mutation does', () => {
    expect(versionedTypes).toEqual(
      new Set(['Deal', 'Person', 'Company', 'Note', 'Comment', 'CalendarEntry', 'Document', 'AccountNotification', 'Conversation']),
    );
    const taking = Object.values(schema.getMutationType()!.getFields())
      .filter((f) => f.args.some((a) => a.name === 'expectedVersion'))
      .map((f) => f.name)
      .sort();
    expect(taking).toEqual(conditional.map((c) => c.name).sort());
    expect(new Set(conditional.map((c) => c.type))).toEqual(versionedTypes);
  });

  describe.each(conditional.map((c) => [c.name, c] as const))('%s', (_, mutation) => {
    it('refuses a stale expectedVersion (STALE, nothing written), then writes with the current one', async () => {
      const id = await FIXTURES[snake(mutation.type)].create(server, key);
      const read = await server.graphql(key, `{ node(id: "${Buffer.from(`${mutation.type}:${id}`).toString('base64url')}") { ... on Versioned { version } } }`);
      const version = read.body.data?.node?.version as number;
      expect(version).toBe(await versionOf(mutation.type, id));
      const payload = getNamedType(mutation.field.type);
      const record = isObjectType(payload)
        ? Object.keys(payload.getFields()).find((f) => f === mutation.type.charAt(0).toLowerCase() + mutation.type.slice(1))
        : undefined;
      const hasInput = mutation.field.args.some((a) => a.name === 'input');
      const run = (expected: number) =>
        server.graphql(
          key,
          `mutation($input: ${mutation.type}UpdateInput, $v: Int) { ${mutation.name}(id: ${id}${hasInput ? ', input: $input' : ''}, expectedVersion: $v) { ${
            record && mutation.verb === 'update' ? `${record} { version }` : ''
          } userErrors { field code message } } }`.replace(`$input: ${mutation.type}UpdateInput, `, hasInput ? `$input: ${mutation.type}UpdateInput!, ` : ''),
          { ...(hasInput ? { input: updateInputFor(schema, mutation.name) } : {}), v: expected },
        );
      const stale = await run(version + 1);
      expect(stale.body.errors).toBeUndefined();
      expect(stale.body.data[mutation.name].userErrors).toEqual([
        { field: ['expectedVersion'], code: 'STALE', message: expect.stringContaining('changed since version') },
      ]);
      expect(await versionOf(mutation.type, id)).toBe(version);

      const fresh = await run(version);
      expect(fresh.body.data[mutation.name].userErrors).toEqual([]);
      if (mutation.verb === 'delete') expect(await versionOf(mutation.type, id)).toBeNull();
      else {
        expect(await versionOf(mutation.type, id)).toBe(version + 1);
        if (record) expect(fresh.body.data[mutation.name][record].version).toBe(version + 1);
      }
    });
  });

  describe.each(writeRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_, route: RouteSpec) => {
    it('412 for an If-Match that is not the current ETag (nothing written), the write for the current one', async () => {
      const sample = await sampleRoute(server, key, route, SERVED_ROUTES);
      const attrs = FIXTURES[route.resource.root].v3Attrs;
      const body = route.kind === 'update' ? { [route.resource.root]: attrs ? attrs() : {} } : undefined;
      const shown = await server.request('GET', sample.path, { apiKey: key });
      expect(shown.status).toBe(200);
      const etag = shown.headers.get('etag')!;
      expect(etag).toMatch(/^"/);

      for (const stale of ['"not-it"', `W/${etag}`]) {
        const refused = await server.request(route.method, sample.path, { apiKey: key, body, headers: { 'If-Match': stale } });
        expect(refused.status).toBe(412);
        expect(refused.body).toEqual({ error: expect.stringContaining('If-Match') });
        expect(refused.headers.get('etag')).toBe(etag);
      }
      const unchanged = await server.request('GET', sample.path, { apiKey: key });
      expect(unchanged.headers.get('etag')).toBe(etag);

      const done = await server.request(route.method, sample.path, { apiKey: key, body, headers: { 'If-Match': `"other", ${etag}` } });
      expect(done.status).toBe(200);
      const after = await server.request('GET', sample.path, { apiKey: key });
      if (route.kind === 'delete') expect(after.status).toBe(404);
    });
  });

  it('If-Match: * writes a record that exists; a malformed If-Match is a 400; a missing record a 404', async () => {
    const v3 = server.v3(key);
    const deal = (await v3.post('/deals.json', { deal: { name: 'Starred' } })).body;
    const put = (id: number, value: string) =>
      server.request('PUT', `/api/v3/deals/${id}.json`, { apiKey: key, body: { deal: { name: 'Star' } }, headers: { 'If-Match': value } });
    expect((await put(deal.id, '*')).status).toBe(200);
    const malformed = await put(deal.id, 'abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/If-Match/);
    expect((await put(999_999_999, '*')).status).toBe(404);
  });

  it('two writers racing with one ETag: exactly one wins, the other gets 412', async () => {
    const v3 = server.v3(key);
    for (let round = 0; round < 5; round++) {
      const deal = (await v3.post('/deals.json', { deal: { name: `Raced ${round}` } })).body;
      const etag = (await server.request('GET', `/api/v3/deals/${deal.id}.json`, { apiKey: key })).headers.get('etag')!;
      const write = (name: string) =>
        server.request('PUT', `/api/v3/deals/${deal.id}.json`, { apiKey: key, body: { deal: { name } }, headers: { 'If-Match': etag } });
      const answers = await Promise.all([write('First'), write('Second')]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
      const winner = answers.find((a) => a.status === 200)!.body.name;
      expect((await v3.get(`/deals/${deal.id}.json`)).body.name).toBe(winner);
      expect(await versionOf('Deal', deal.id)).toBe(2);
    }
    // The same on GraphQL: one version, two updates at once.
    const deal = (await v3.post('/deals.json', { deal: { name: 'Raced on GraphQL' } })).body;
    const update = (name: string) =>
      server.graphql(key, `mutation { updateDeal(id: ${deal.id}, input: { name: "${name}" }, expectedVersion: 1) { deal { version } userErrors { code } } }`);
    const answers = await Promise.all([update('A'), update('B')]);
    expect(answers.map((a) => a.body.data.updateDeal.userErrors.map((e: { code: string }) => e.code).join()).sort()).toEqual(['', 'STALE']);
  });

  it('the version moves with every change a change record shows, whoever writes it, and with nothing else', async () => {
    const v3 = server.v3(key);
    const deal = (await v3.post('/deals.json', { deal: { name: 'Moving' } })).body;
    expect(await versionOf('Deal', deal.id)).toBe(1);
    // A write of the same values changes nothing the records show.
    expect((await v3.put(`/deals/${deal.id}.json`, { deal: { name: 'Moving' } })).status).toBe(200);
    expect(await versionOf('Deal', deal.id)).toBe(1);
    // Its people are a field of the deal.
    const person = (await v3.post('/people.json', { person: { first_name: 'Pat', last_name: 'Linked' } })).body;
    expect((await v3.put(`/deals/${deal.id}.json`, { deal: { person_ids: [person.id] } })).status).toBe(200);
    expect(await versionOf('Deal', deal.id)).toBe(2);
    // SQL of a job or a console moves it too; a column the records leave out does not.
    await server.sql(`update deals set summary = 'by hand' where id = ?`, [deal.id]);
    expect(await versionOf('Deal', deal.id)).toBe(3);
    await server.sql(`update deals set updated_at = now(), viewed_at = now() where id = ?`, [deal.id]);
    expect(await versionOf('Deal', deal.id)).toBe(3);
    // The change records never show it.
    const changes = await server.sql<{ changes: Record<string, unknown> | null }>(`select changes from record_changes where model = 'deal' and record_id = ?`, [
      deal.id,
    ]);
    expect(changes.some((c) => c.changes && 'lock_version' in c.changes)).toBe(false);
    await v3.del(`/deals/${deal.id}.json`);
    const [tombstone] = await server.sql<{ record: Record<string, unknown> }>(
      `select record from record_changes where model = 'deal' and action = 'destroy' and record_id = ?`,
      [deal.id],
    );
    expect(tombstone.record).not.toHaveProperty('lock_version');
    expect(tombstone.record).toHaveProperty('name', 'Moving');
  });

  it("writes of overlapping deal sets at once wait for each other, never deadlock (the deals' versions move in id order)", async () => {
    const v3 = server.v3(key);
    const deals: number[] = [];
    for (let i = 0; i < 40; i++) deals.push((await v3.post('/deals.json', { deal: { name: `Set ${i}` } })).body.id as number);
    const people: number[] = [];
    for (let i = 0; i < 6; i++) people.push((await v3.post('/people.json', { person: { first_name: 'Set', last_name: `Member ${i}` } })).body.id as number);
    const answers = await Promise.all(
      people.map((id, i) =>
        server.graphql(key, `mutation($ids: [Int!]) { updatePerson(id: ${id}, input: { dealIds: $ids }) { userErrors { code } } }`, {
          ids: i % 2 === 0 ? deals : [...deals].reverse(),
        }),
      ),
    );
    for (const answer of answers) expect(answer.body).toEqual({ data: { updatePerson: { userErrors: [] } }, extensions: expect.anything() });
    // Each deal's set changed once per person: its version moved as many times.
    const versions = await server.sql<{ v: number }>(`select lock_version as v from deals where id = any(?::int[])`, [`{${deals.join(',')}}`]);
    expect(new Set(versions.map((r) => Number(r.v)))).toEqual(new Set([1 + people.length]));
  });

  it('a hidden record is NOT_FOUND whatever version is given, never STALE', async () => {
    const member = await account.addUser({ visibility: 'own' as never });
    const deal = (await server.v3(key).post('/deals.json', { deal: { name: 'Not yours' } })).body;
    const res = await server.graphql(
      member.apiKey,
      `mutation { updateDeal(id: ${deal.id}, input: { name: "X" }, expectedVersion: 99) { userErrors { field code } } }`,
    );
    expect(res.body.data.updateDeal.userErrors).toEqual([{ field: ['id'], code: 'NOT_FOUND' }]);
    const v3 = await server.request('PUT', `/api/v3/deals/${deal.id}.json`, {
      apiKey: member.apiKey,
      body: { deal: { name: 'X' } },
      headers: { 'If-Match': '"x"' },
    });
    expect(v3.status).toBe(404);
  });

  it('an account that requires preconditions: 428 and PRECONDITION_REQUIRED without one; creates and conditional writes go through', async () => {
    const other = await server.createAccount();
    const admin = other.admin.apiKey;
    const member = await other.addUser();
    const settings = (apiKey: string, on: boolean) =>
      server.graphql(
        apiKey,
        `mutation { updateAccountSettings(input: { requirePreconditions: ${on} }) { account { requirePreconditions } userErrors { code } } }`,
      );
    const refused = await settings(member.apiKey, true);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await settings(admin, true)).body.data.updateAccountSettings.account.requirePreconditions).toBe(true);

    const v3 = server.v3(admin);
    const deal = await v3.post('/deals.json', { deal: { name: 'Guarded' } });
    expect(deal.status).toBe(200);
    const bare = await v3.put(`/deals/${deal.body.id}.json`, { deal: { name: 'Unguarded' } });
    expect(bare.status).toBe(428);
    expect(bare.body.error).toMatch(/If-Match/);
    expect((await v3.del(`/deals/${deal.body.id}.json`)).status).toBe(428);
    const gql = await server.graphql(admin, `mutation { updateDeal(id: ${deal.body.id}, input: { name: "Unguarded" }) { userErrors { field code } } }`);
    expect(gql.body.data.updateDeal.userErrors).toEqual([{ field: ['expectedVersion'], code: 'PRECONDITION_REQUIRED' }]);
    expect((await v3.get(`/deals/${deal.body.id}.json`)).body.name).toBe('Guarded');

    const etag = (await server.request('GET', `/api/v3/deals/${deal.body.id}.json`, { apiKey: admin })).headers.get('etag')!;
    const guarded = await server.request('PUT', `/api/v3/deals/${deal.body.id}.json`, {
      apiKey: admin,
      body: { deal: { name: 'Guarded twice' } },
      headers: { 'If-Match': etag },
    });
    expect(guarded.status).toBe(200);
    const withVersion = await server.graphql(
      admin,
      `mutation { deleteDeal(id: ${deal.body.id}, expectedVersion: 2) { deletedDatabaseId userErrors { code } } }`,
    );
    expect(withVersion.body.data.deleteDeal).toEqual({ deletedDatabaseId: deal.body.id, userErrors: [] });

    expect((await settings(admin, false)).body.data.updateAccountSettings.account.requirePreconditions).toBe(false);
    const person = (await v3.post('/people.json', { person: { first_name: 'Free', last_name: 'Again' } })).body;
    expect((await v3.put(`/people/${person.id}.json`, { person: { first_name: 'Freed' } })).status).toBe(200);
  });
});
