import { openServerWithAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * /graphql refuses over-long string inputs, operations that cannot be chosen, subscriptions, deep
 * JSON values and deep documents with a clear 400 naming what is wrong (never a 500, never a stack
 * overflow). The limits are tabled in docs/graphql-api.md ("Limits and cost").
 */
describe('GraphQL input and document limits', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    ({ server, key } = await openServerWithAccount());
  }, 60_000);
  afterAll(() => server.close());

  const raw = (body: string) => server.request('POST', '/graphql', { body, contentType: 'application/json', headers: { authorization: `Bearer ${key}` } });
  const post = (body: Record<string, unknown>) => server.request('POST', '/graphql', { body, headers: { authorization: `Bearer ${key}` } });

  function expect400(res: TestResponse, code: string, message: RegExp): void {
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe(code);
    expect(res.body.errors[0].message).toMatch(message);
    expect(res.body.data ?? null).toBeNull();
    expect(res.headers.get('x-request-id')).toBeTruthy();
  }

  describe('string inputs', () => {
    it('a filter string is at most 200 characters, inline or as a variable, anywhere under a *Filter input', async () => {
      const ok = await server.graphql(key, `{ people(filter: { name: { contains: "${'a'.repeat(200)}" } }) { totalCount } }`);
      expect(ok.status).toBe(200);
      expect(ok.body.data.people.totalCount).toBe(0);

      expect400(
        await server.graphql(key, `{ people(filter: { name: { contains: "${'a'.repeat(201)}" } }) { totalCount } }`),
        'BAD_USER_INPUT',
        /^Input people\.filter\.name\.contains is too long: 201 characters, at most 200 are allowed in a filter$/,
      );
      const huge = await server.graphql(key, 'query($f: PersonFilter) { people(filter: $f) { totalCount } }', {
        f: { or: [{ name: { eq: 'x'.repeat(900_000) } }] },
      });
      expect400(huge, 'BAD_USER_INPUT', /people\.filter\.or\[0\]\.name\.eq \(variable \$f\) is too long: 900000 characters, at most 200/);
      const scalarVar = await server.graphql(key, 'query($n: String) { companies(filter: { city: { startsWith: $n } }) { totalCount } }', {
        n: 'y'.repeat(201),
      });
      expect400(scalarVar, 'BAD_USER_INPUT', /companies\.filter\.city\.startsWith \(variable \$n\) is too long: 201 characters/);
      const range = await server.graphql(key, 'query($c: StringFilter) { companies(filter: { name: $c }) { totalCount } }', { c: { in: ['2'.repeat(300)] } });
      expect400(range, 'BAD_USER_INPUT', /companies\.filter\.name\.in\[0\] \(variable \$c\) is too long: 300 characters, at most 200/);
      // Characters, not UTF-16 units: 200 emoji are 200 characters.
      expect(
        (await server.graphql(key, 'query($f: PersonFilter) { people(filter: $f) { totalCount } }', { f: { name: { contains: '😀'.repeat(200) } } })).status,
      ).toBe(200);
    });

    it('any other string input is at most 10,000 characters; the v3 facade is not held to these caps', async () => {
      const mutation = 'mutation($i: PersonCreateInput!) { createPerson(input: $i) { person { id summary } } }';
      const long = await server.graphql(key, mutation, { i: { lastName: 'Long', summary: 's'.repeat(10_000) } });
      expect(long.body.errors).toBeUndefined();
      expect(long.body.data.createPerson.person.summary).toHaveLength(10_000);
      expect400(
        await server.graphql(key, mutation, { i: { lastName: 'Long', summary: 's'.repeat(10_001) } }),
        'BAD_USER_INPUT',
        /createPerson\.input\.summary \(variable \$i\) is too long: 10001 characters, at most 10000 are allowed$/,
      );
      expect400(
        await server.graphql(key, `mutation { createCompany(input: { name: "${'n'.repeat(10_001)}" }) { company { id } } }`),
        'BAD_USER_INPUT',
        /createCompany\.input\.name is too long/,
      );

      const v3 = await server.v3(key).post('/people.json', { person: { last_name: 'Facade', summary: 'b'.repeat(10_000) } });
      expect(v3.status).toBe(200);
      expect(await server.sql(`select length(summary) as n from people where last_name = 'Facade'`)).toEqual([{ n: 10_000 }]);
      const conditions = await server.v3(key).get('/people.json', { 'conditions[last_name]': 'Facade' });
      expect(conditions.status).toBe(200);
    });
  });

  describe('operation selection', () => {
    it('several operations without operationName: 400 saying so', async () => {
      const res = await post({ query: 'query A { account { id } } query B { viewer { id } }' });
      expect400(res, 'OPERATION_RESOLUTION_FAILURE', /^The document defines 2 operations \(A, B\): name the one to run in operationName$/);
    });

    it('an operationName the document does not define: 400 naming it', async () => {
      const res = await post({ query: 'query A { account { id } }', operationName: 'Z' });
      expect400(res, 'OPERATION_RESOLUTION_FAILURE', /^Unknown operation named "Z": the document defines A$/);
      const chosen = await post({ query: 'query A { account { id } } query B { viewer { databaseId } }', operationName: 'B' });
      expect(chosen.status).toBe(200);
      expect(chosen.body.data).toEqual({ viewer: { databaseId: expect.any(Number) } });
    });

    it('a subscription: 400 "Subscriptions are not supported"', async () => {
      expect400(await server.graphql(key, 'subscription { companies { totalCount } }'), 'BAD_REQUEST', /^Subscriptions are not supported/);
    });
  });

  describe('JSON values', () => {
    const mutation = 'mutation($i: CompanyCreateInput!) { createCompany(input: $i) { company { databaseId } } }';
    const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

    it('refuses a customFields value nested more than 20 deep, as a variable or inline', async () => {
      const deep = await raw(`{"query":${JSON.stringify(mutation)},"variables":{"i":{"name":"Deep","customFields":${nested(5000)}}}}`);
      expect400(deep, 'BAD_USER_INPUT', /^Input createCompany\.input\.customFields \(variable \$i\) is nested too deeply: more than 20 levels$/);
      const inline = await server.graphql(
        key,
        `mutation { createCompany(input: { name: "Deep", customFields: ${'{a: '.repeat(30)}1${'}'.repeat(30)} }) { company { id } } }`,
      );
      expect400(inline, 'BAD_USER_INPUT', /^Input createCompany\.input\.customFields is nested too deeply: more than 20 levels$/);
      expect(await server.sql(`select id from companies where name = 'Deep'`)).toEqual([]);
    });

    it('refuses more than 1000 keys, and takes an ordinary value', async () => {
      const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`custom_label_${i}`, 'x']));
      expect400(
        await server.graphql(key, mutation, { i: { name: 'Many', customFields: many } }),
        'BAD_USER_INPUT',
        /customFields \(variable \$i\) is too large: more than 1000 keys and items/,
      );
      const ok = await server.graphql(key, mutation, { i: { name: 'Plain', customFields: { custom_label_1: 'x', custom_label_2: ['a', 'b'] } } });
      expect(ok.body.errors).toBeUndefined();
      expect(ok.body.data.createCompany.company.databaseId).toEqual(expect.any(Number));
    });
  });

  describe('deep and long documents', () => {
    it('a selection nested 5,000 deep is a 400 about nesting, not a stack overflow', async () => {
      const res = await server.graphql(key, '{ account ' + '{ id '.repeat(5000) + '}'.repeat(5001));
      expect400(res, 'GRAPHQL_PARSE_FAILED', /^Document is nested too deeply: more than 64 levels of braces, brackets or parentheses$/);
      expect(res.text).not.toMatch(/call stack/i);
      const literal = await server.graphql(
        key,
        `mutation { createCompany(input: { name: "L", customFields: ${'{a: '.repeat(3000)}1${'}'.repeat(3000)} }) { company { id } } }`,
      );
      expect400(literal, 'GRAPHQL_PARSE_FAILED', /nested too deeply/);
    });

    it('braces in strings and comments do not count', async () => {
      const res = await server.graphql(key, `# ${'{'.repeat(100)}\n{ people(filter: { name: { contains: "${'{['.repeat(90)}" } }) { totalCount } }`);
      expect(res.status).toBe(200);
      expect(res.body.data.people.totalCount).toBe(0);
    });

    it('a document of more than 20,000 tokens is refused', async () => {
      const res = await server.graphql(key, `{ account { ${'id '.repeat(20_001)} } }`);
      expect400(res, 'GRAPHQL_PARSE_FAILED', /Document contains more tha[nt] 20000 tokens/);
    });
  });
});
