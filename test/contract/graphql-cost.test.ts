import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { getIntrospectionQuery, parse, type OperationDefinitionNode } from 'graphql';
import { loadConfig } from '../../src/config/config';
import { fragmentsOf, operationCost, unboundedLists } from '../../src/graphql/cost';
import { MemoryBuckets, RedisBuckets } from '../../src/graphql/rate-limit';
import { createSchema } from '../../src/app/schema';
import { describeWithRedis, startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * Each /graphql operation costs what it asks for, in v3 requests (src/graphql/cost.ts), charged at
 * once to the bucket REST uses; a v3 request still costs 1. Buckets here barely refill (0.001/s),
 * so every count is exact.
 */
const slowRefill = { RATE_LIMIT_PER_SECOND: '0.001', APP_RATE_LIMIT_PER_SECOND: '0.001' };
const cost = (res: TestResponse) => res.body.extensions?.cost;

describe('GraphQL operation cost', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ ...slowRefill, RATE_LIMIT_BURST: '1000', APP_RATE_LIMIT_BURST: '1000' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  const freshKey = async () => (await account.addUser()).apiKey;

  it('one root field costs 1; each further root field or alias 1 more; reported in extensions.cost and the headers', async () => {
    const key = await freshKey();
    const one = await server.graphql(key, '{ people(first: 200) { nodes { id owner { id } company { name } tags { id } } } }');
    expect(one.status).toBe(200);
    expect(cost(one)).toEqual({ requested: 1, charged: 1, remaining: 999 });
    expect(one.headers.get('x-ratelimit-remaining')).toBe('999');
    const three = await server.graphql(key, '{ a: companies { totalCount } b: companies { totalCount } viewer { id } }');
    expect(cost(three)).toEqual({ requested: 3, charged: 3, remaining: 996 });
    expect(three.headers.get('x-ratelimit-remaining')).toBe('996');
    expect(three.headers.get('x-ratelimit-limit')).toBe('1000');
    const mutations = await server.graphql(
      key,
      'mutation { a: createCompany(input: { name: "C1" }) { company { id } } b: createCompany(input: { name: "C2" }) { company { id } } }',
    );
    expect(mutations.body.errors).toBeUndefined();
    expect(cost(mutations)).toEqual({ requested: 2, charged: 2, remaining: 994 });
    // A v3 request draws 1 from the same bucket.
    const v3 = await server.v3(key).get('/companies.json');
    expect(v3.status).toBe(200);
    expect(v3.headers.get('x-ratelimit-remaining')).toBe('993');
  });

  it('a nested list costs ceil(parent rows × its page size / 200); skipped fields cost nothing, an introspection at least 1', async () => {
    const key = await freshKey();
    const nested = await server.graphql(key, 'query($p: Int) { companies(first: 10) { nodes { people(first: $p) { nodes { id } } } } }', { p: 50 });
    expect(nested.body.errors).toBeUndefined();
    expect(cost(nested)).toEqual({ requested: 1 + 3, charged: 4, remaining: 996 }); // ceil(10 × 50 / 200) = 3
    const single = await server.graphql(key, '{ viewer { id } }');
    expect(cost(single).requested).toBe(1);
    const skipped = await server.graphql(key, 'query($s: Boolean!) { a: companies @skip(if: $s) { totalCount } b: companies { totalCount } }', { s: true });
    expect(cost(skipped)).toEqual({ requested: 1, charged: 1, remaining: 994 });
    const introspection = await server.graphql(key, '{ __schema { queryType { name } } }');
    expect(introspection.status).toBe(200);
    expect(cost(introspection)).toEqual({ requested: 1, charged: 1, remaining: 993 });
    expect(introspection.headers.get('x-ratelimit-remaining')).toBe('993');
  });

  it('nothing is free: a __typename operation, an introspection and a validation failure each take 1', async () => {
    const key = await freshKey();
    expect(cost(await server.graphql(key, '{ __typename }'))).toEqual({ requested: 1, charged: 1, remaining: 999 });
    const invalid = await server.graphql(key, '{ noSuchField }');
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('998');
    const unparsable = await server.graphql(key, '{ people(');
    expect(unparsable.status).toBe(400);
    const full = await server.graphql(key, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(full.status).toBe(200);
    expect(cost(full).requested).toBeGreaterThanOrEqual(1);
    expect(cost(full).remaining).toBe(997 - cost(full).charged);
    const aliased = `{ ${Array.from({ length: 399 }, (_, i) => `a${i}: __schema { types { fields { name description } } }`).join(' ')} }`;
    const refused = await server.graphql(key, aliased);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');
    expect(refused.body.data).toBeUndefined();
  });

  it('an operation above GRAPHQL_MAX_COST (50) is a 400 naming its cost and the maximum; nothing runs and nothing is charged', async () => {
    const key = await freshKey();
    const creates = Array.from({ length: 200 }, (_, i) => `p${i}: createPerson(input: { lastName: "Costly${i}" }) { person { id } }`).join(' ');
    const refused = await server.graphql(key, `mutation { ${creates} }`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { message: expect.stringMatching(/^Operation costs 200, more than the maximum of 50 per operation/), extensions: { code: 'COST_LIMIT_EXCEEDED' } },
    ]);
    // The request itself took 1 on arrival (every request does), nothing more.
    expect(cost(refused)).toEqual({ requested: 200, charged: 1, remaining: 999 });
    expect(await server.sql(`select id from people where last_name like 'Costly%'`)).toEqual([]);

    const lists = Array.from({ length: 666 }, (_, i) => `l${i}: people(first: 200) { nodes { id } }`).join(' ');
    const many = await server.graphql(key, `{ ${lists} }`);
    expect(many.status).toBe(400);
    expect(many.body.errors[0].message).toMatch(/^Operation costs 666, more than the maximum of 50/);
    // Default pages: 100 companies × 100 people each = 10,000 rows, 50 units, + 1.
    const fanOut = await server.graphql(key, '{ companies { nodes { people { nodes { id } } } } }');
    expect(fanOut.status).toBe(400);
    expect(fanOut.body.errors[0].message).toMatch(/^Operation costs 51, more than the maximum of 50/);
    expect(fanOut.headers.get('x-ratelimit-remaining')).toBe('997'); // three requests, 1 each
    expect((await server.v3(key).get('/companies.json')).headers.get('x-ratelimit-remaining')).toBe('996');
  });

  it('reads GRAPHQL_MAX_COST from the environment (default 50)', () => {
    expect(loadConfig({}).graphqlMaxCost).toBe(50);
    expect(loadConfig({ GRAPHQL_MAX_COST: '7' }).graphqlMaxCost).toBe(7);
    expect(() => loadConfig({ GRAPHQL_MAX_COST: '0' })).toThrow(/GRAPHQL_MAX_COST/);
  });
});

describe('GraphQL cost against a small bucket', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ ...slowRefill, RATE_LIMIT_BURST: '10', APP_RATE_LIMIT_BURST: '20' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `v${i}: viewer { id }`).join(' ')} }`;

  it('takes 1 on arrival and the rest all or nothing: 429 with Retry-After when the bucket lacks it, and a cheaper operation still passes', async () => {
    const key = (await account.addUser()).apiKey;
    const first = await server.graphql(key, aliases(6));
    expect(cost(first)).toEqual({ requested: 6, charged: 6, remaining: 4 });
    const second = await server.graphql(key, aliases(6));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(second.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(second.body.data ?? null).toBeNull();
    // The 1 every request takes on arrival stays taken; the other 5 are not.
    expect(cost(second)).toEqual({ requested: 6, charged: 1, remaining: 3 });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('3');
    const third = await server.graphql(key, aliases(3));
    expect(cost(third)).toEqual({ requested: 3, charged: 3, remaining: 0 });
  });

  it('the maximum is the bucket’s burst when that is smaller than GRAPHQL_MAX_COST: more could never be paid', async () => {
    const key = (await account.addUser()).apiKey;
    const res = await server.graphql(key, aliases(11));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      message: expect.stringMatching(/^Operation costs 11, more than the maximum of 10 per operation/),
      extensions: { code: 'COST_LIMIT_EXCEEDED' },
    });
    expect((await server.graphql((await account.addUser()).apiKey, aliases(10))).status).toBe(200);
  });
});

describe('the cost rule', () => {
  const schema = createSchema();
  const costOf = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
    return operationCost(schema, fragmentsOf(document.definitions), variables, operation);
  };

  it('counts root fields, aliases, fragments and nested pages as documented', () => {
    expect(costOf('{ people { nodes { id tags { id } customFields { value } owner { id } } } }')).toBe(1);
    expect(costOf('{ a: people { totalCount } ...F } fragment F on Query { b: companies { totalCount } }')).toBe(2);
    // The same response key is resolved once.
    expect(costOf('{ people { nodes { id } } people { totalCount } }')).toBe(1);
    expect(costOf('{ company(id: 1) { people(first: 200) { nodes { id } } } }')).toBe(2);
    expect(costOf('{ company(id: 1) { people { nodes { id } } } }')).toBe(2); // ceil(1 × 100 / 200)
    expect(costOf('{ companies(first: 1000) { nodes { people(first: 1000) { nodes { id } } } } }')).toBe(1 + 200); // clamped to 200
    expect(costOf('{ companies(first: 0) { nodes { people(first: 1) { nodes { id } } } } }')).toBe(2);
    expect(costOf('{ leadStatuses { nodes { id } } }')).toBe(1);
    expect(costOf('{ __typename }')).toBe(0); // the guard still takes 1: every request does
    expect(costOf('{ __typename __schema { types { name } } }')).toBe(1);
    expect(
      costOf(
        'mutation { a: deletePerson(id: 1) { deletedId } b: deletePerson(id: 2) { deletedId } c: createCompany(input: { name: "x" }) { company { people { nodes { id } } } } }',
      ),
    ).toBe(4);
  });

  it('every list on the path multiplies: nodes(ids:) by its ids, a connection by its page', () => {
    const ids = Array.from({ length: 100 }, () => 'Q29tcGFueTox');
    const fanOut = 'query($i: [ID!]!) { nodes(ids: $i) { ... on Company { people(first: 200) { nodes { databaseId lastName } } } } }';
    expect(costOf(fanOut, { i: ids })).toBe(1 + 100); // 100 companies × 200 people = 20,000 rows
    expect(costOf(fanOut, { i: ids.slice(0, 1) })).toBe(1 + 1);
    // nodes(ids:) by itself: as many records as ids, 200 to a unit.
    expect(costOf('query($i: [ID!]!) { nodes(ids: $i) { id } }', { i: Array.from({ length: 20_000 }, () => 'x') })).toBe(100);
    expect(costOf('query($i: [ID!]!) { nodes(ids: $i) { id } }', { i: ids })).toBe(1);
    // Through edges as through nodes; both selected: both charged.
    expect(costOf('{ companies(first: 20) { edges { node { people(first: 20) { totalCount } } } } }')).toBe(1 + 2);
    expect(costOf('{ companies(first: 20) { edges { node { people(first: 20) { totalCount } } } nodes { people(first: 20) { totalCount } } } }')).toBe(
      1 + 2 + 2,
    );
  });

  it('introspection costs what it returns; the full query of code generators and the explorer fits a user burst', () => {
    const full = costOf(
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
    );
    expect(full).toBeGreaterThanOrEqual(1);
    // It grows with the schema (4 with issue 12's types): within half a user's burst of 10, so a
    // code generator and the explorer still run under the default limits.
    expect(full).toBeLessThanOrEqual(5);
    const one = costOf('{ __schema { types { fields { name description } } } }');
    expect(one).toBeGreaterThanOrEqual(1);
    const aliased = `{ ${Array.from({ length: 399 }, (_, i) => `a${i}: __schema { types { fields { name description } } }`).join(' ')} }`;
    expect(costOf(aliased)).toBeGreaterThan(50); // 399 × one, or too large to count: refused either way
    expect(costOf('{ __type(name: "Person") { fields { name } } }')).toBe(1);
    // Self-nesting through type references costs its true size, counted without walking it at that size.
    const deep =
      '{ __schema { types { interfaces { possibleTypes { interfaces { possibleTypes { interfaces { possibleTypes { interfaces { possibleTypes { fields { name args { name } } } } } } } } } } } } }';
    expect(costOf(deep)).toBeGreaterThan(50);
  });

  it('every list of records that can reach a connection declares its bound', () => {
    expect(unboundedLists(schema)).toEqual([]);
  });

  it('the memory bucket takes n tokens at once, or none', async () => {
    const buckets = new MemoryBuckets();
    const tier = { perSecond: 0.001, burst: 10 };
    expect(await buckets.take('k', tier, 7)).toEqual({ allowed: true, tokens: expect.closeTo(3, 2) });
    expect((await buckets.take('k', tier, 4)).allowed).toBe(false);
    expect(Math.floor(await buckets.peek('k', tier))).toBe(3);
    expect((await buckets.take('k', tier, 0)).allowed).toBe(true);
    expect((await buckets.take('k', tier)).allowed).toBe(true);
    expect(Math.floor(await buckets.peek('k', tier))).toBe(2);
  });
});

describeWithRedis('GraphQL cost with the shared (Redis) buckets', () => {
  const prefix = `crmtest:${randomBytes(4).toString('hex')}:`;

  it('the Redis script takes n tokens atomically, or none', async () => {
    const buckets = new RedisBuckets(new Redis(process.env.TEST_REDIS_URL as string), prefix);
    try {
      const tier = { perSecond: 0.001, burst: 10 };
      const results = await Promise.all(Array.from({ length: 4 }, () => buckets.take('n', tier, 3)));
      expect(results.filter((r) => r.allowed)).toHaveLength(3);
      expect(Math.floor(await buckets.peek('n', tier))).toBe(1);
      expect((await buckets.take('n', tier, 2)).allowed).toBe(false);
      expect((await buckets.take('n', tier, 1)).allowed).toBe(true);
    } finally {
      await buckets.close();
    }
  });

  it('a GraphQL operation and v3 requests draw on one Redis bucket', async () => {
    const server = await startTestServer({ REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: prefix, ...slowRefill, RATE_LIMIT_BURST: '10' });
    try {
      const { admin } = await server.createAccount();
      const res = await server.graphql(admin.apiKey, '{ a: viewer { id } b: viewer { id } c: viewer { id } }');
      expect(cost(res)).toEqual({ requested: 3, charged: 3, remaining: 7 });
      expect((await server.v3(admin.apiKey).get('/companies.json')).headers.get('x-ratelimit-remaining')).toBe('6');
    } finally {
      await server.close();
    }
  });
});
