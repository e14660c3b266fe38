import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isLeafType,
  isListType,
  parse,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import {
  CONDITION_WORK,
  FILTER_WORK_PER_UNIT,
  FREE_FILTER_WORK,
  RELATED_WORK_FACTOR,
  TEXT_MATCH_NAMES,
  TEXT_MATCH_WORK,
  filterCost,
  filterWork,
  fragmentsOf,
  operationCost,
} from '../../src/graphql/cost';
import { createSchema } from '../../src/app/schema';
import { startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * Issue 21 §5: a filter's work is in its list's cost (src/graphql/cost.ts `filterWork`). Fifty
 * aliased lists each filtering on 100 `contains` cost what fifty plain lists cost before, and held
 * the database for 19 s on a 3,000-person account; now they are refused for their cost, while
 * plain lists and lists with a few conditions cost what they always did.
 */

const cost = (res: TestResponse) => res.body.extensions?.cost;
/** `or` of n `contains` conditions, the most one filter may hold at n = 100. */
const manyContains = (n: number) => ({ or: Array.from({ length: n }, (_, i) => ({ lastName: { contains: `x${i}` } })) });
const literal = (n: number) => `{ or: [${Array.from({ length: n }, (_, i) => `{ lastName: { contains: "x${i}" } }`).join(' ')}] }`;
const aliased = (n: number, list: string) => `{ ${Array.from({ length: n }, (_, i) => `l${i}: ${list}`).join(' ')} }`;

describe('filter work in the cost (HTTP)', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    // Buckets that barely refill and hold more than GRAPHQL_MAX_COST (50): the maximum is 50, counts are exact.
    server = await startTestServer({
      RATE_LIMIT_PER_SECOND: '0.001',
      APP_RATE_LIMIT_PER_SECOND: '0.001',
      RATE_LIMIT_BURST: '1000',
      APP_RATE_LIMIT_BURST: '1000',
    });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  const freshKey = async () => (await account.addUser()).apiKey;

  it('fifty aliased lists of 100 `contains` are refused for their cost; nothing runs and only the arrival 1 is taken', async () => {
    const key = await freshKey();
    // One filter in a variable, as the reported request sent it (written out fifty times it passes 20,000 tokens).
    const fifty = `query($f: PersonFilter) { ${Array.from({ length: 50 }, (_, i) => `l${i}: people(filter: $f) { nodes { id } }`).join(' ')} }`;
    const refused = await server.graphql(key, fifty, { f: manyContains(100) });
    expect(refused.status).toBe(400);
    // 400 of work: 1 + ceil((400 − 40) / 20) = 19 each.
    expect(refused.body.errors).toEqual([
      { message: expect.stringMatching(/^Operation costs 950, more than the maximum of 50 per operation/), extensions: { code: 'COST_LIMIT_EXCEEDED' } },
    ]);
    expect(refused.body.data).toBeUndefined();
    expect(cost(refused)).toEqual({ requested: 950, charged: 1, remaining: 999 });

    // Three written inline cost as much each: 57.
    const inline = await server.graphql(key, aliased(3, `people(filter: ${literal(100)}) { nodes { id } }`));
    expect(inline.status).toBe(400);
    expect(inline.body.errors[0].message).toMatch(/^Operation costs 57, more than the maximum of 50/);
    expect(inline.headers.get('x-ratelimit-remaining')).toBe('998');
  });

  it('one such list runs, charged its work; fifty plain lists and a list with a few conditions cost what they did', async () => {
    const key = await freshKey();
    const heavy = await server.graphql(key, 'query($f: PersonFilter) { people(filter: $f) { nodes { id } } }', { f: manyContains(100) });
    expect(heavy.body.errors).toBeUndefined();
    expect(cost(heavy)).toEqual({ requested: 19, charged: 19, remaining: 981 });

    const plain = await server.graphql(key, aliased(50, 'people(first: 200) { nodes { id } }'));
    expect(plain.body.errors).toBeUndefined();
    expect(cost(plain)).toEqual({ requested: 50, charged: 50, remaining: 931 });

    const few = await server.graphql(
      key,
      `{ people(first: 200, filter: { lastName: { contains: "a" }, firstName: { startsWith: "b" }, search: "c", createdAt: { gte: "2020-01-01T00:00:00Z" },
         type: { eq: LEAD }, or: [{ ownerId: { in: [1, 2, 3] } }, { email: { isNull: true } }], customFields: [{ label: "custom_label_1", text: { contains: "d" } }] }) { nodes { id } } }`,
    );
    expect(few.body.errors).toBeUndefined();
    expect(cost(few)).toEqual({ requested: 1, charged: 1, remaining: 930 });
  });

  it('a v3 list with conditions still costs 1 (the facade is not costed by its filter)', async () => {
    const key = await freshKey();
    const res = await server.v3(key).get('/people.json', {
      'conditions[person_name]': 'a',
      'conditions[person_city]': 'b',
      'conditions[person_email]': 'c',
      'conditions[person_simple_search]': 'd',
      'conditions[person_id]': '1,2,3',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
  });
});

describe('filterWork', () => {
  const schema = createSchema();
  const input = (name: string) => schema.getType(name) as GraphQLInputObjectType;
  const person = (value: unknown) => filterWork(input('PersonFilter'), value);
  const costOf = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
    return operationCost(schema, fragmentsOf(document.definitions), variables, operation);
  };

  it('counts each leaf condition once; and/or/not and nulls add nothing', () => {
    expect(person({})).toBe(0);
    expect(person({ lastName: { eq: 'a', isNull: null } })).toBe(CONDITION_WORK);
    expect(person({ createdAt: { gte: new Date(0), lt: new Date(1) }, type: { eq: 'LEAD' }, bounced: { eq: true } })).toBe(4 * CONDITION_WORK);
    expect(person({ and: [{ lastName: { eq: 'a' } }], or: [{ firstName: { eq: 'b' } }, { not: { email: { isNull: true } } }] })).toBe(3 * CONDITION_WORK);
  });

  it('text matches (contains, startsWith, search, each value of matches) count TEXT_MATCH_WORK', () => {
    expect(person({ lastName: { contains: 'a', startsWith: 'b' } })).toBe(2 * TEXT_MATCH_WORK);
    expect(person({ search: 'ann' })).toBe(TEXT_MATCH_WORK);
    // The label is a condition of its own (which key of the jsonb column), each matched text another.
    expect(person({ customFields: [{ label: 'custom_label_1', matches: ['a', 'b', 'c'] }] })).toBe(CONDITION_WORK + 3 * TEXT_MATCH_WORK);
    expect(person({ customFields: [{ label: 'custom_label_1', text: { contains: 'a' } }] })).toBe(CONDITION_WORK + TEXT_MATCH_WORK);
  });

  it('an `in` list is one condition per 50 values', () => {
    expect(person({ ownerId: { in: [] } })).toBe(1);
    expect(person({ ownerId: { in: [1, 2, 3] } })).toBe(1);
    expect(person({ tagIds: { in: Array.from({ length: 500 }, (_, i) => i + 1) } })).toBe(10);
  });

  it('conditions on related records count RELATED_WORK_FACTOR times, again at each nested relation', () => {
    const deal = (value: unknown) => filterWork(input('DealFilter'), value);
    expect(deal({ people: { some: { lastName: { contains: 'a' } } } })).toBe(RELATED_WORK_FACTOR * TEXT_MATCH_WORK);
    expect(deal({ people: { some: { email: { eq: 'a' } }, none: { type: { eq: 'LEAD' } } }, company: { name: { eq: 'b' } } })).toBe(3 * RELATED_WORK_FACTOR);
    // A person's deals by id reads the links: a related condition too.
    expect(person({ dealIds: { eq: 1 } })).toBe(RELATED_WORK_FACTOR);
    expect(deal({ people: { some: { dealIds: { eq: 1 } } } })).toBe(RELATED_WORK_FACTOR * RELATED_WORK_FACTOR);
  });

  it('costs nothing up to FREE_FILTER_WORK, then one unit per FILTER_WORK_PER_UNIT', () => {
    expect(FREE_FILTER_WORK).toBe(40);
    expect(FILTER_WORK_PER_UNIT).toBe(20);
    expect(filterCost(0)).toBe(0);
    expect(filterCost(40)).toBe(0);
    expect(filterCost(41)).toBe(1);
    expect(filterCost(60)).toBe(1);
    expect(filterCost(400)).toBe(18);
  });

  it('a list costs 1 + its filter cost; a nested list’s filter counts once, whatever the lists above it', () => {
    expect(costOf('query($f: PersonFilter) { people(filter: $f) { nodes { id } } }', { f: manyContains(10) })).toBe(1);
    expect(costOf('query($f: PersonFilter) { people(filter: $f) { nodes { id } } }', { f: manyContains(100) })).toBe(19);
    // 100 plain comparisons: cheap per row, 1 + ceil(60 / 20).
    expect(
      costOf('query($f: PersonFilter) { people(filter: $f) { nodes { id } } }', {
        f: { or: Array.from({ length: 100 }, (_, i) => ({ databaseId: { eq: i + 1 } })) },
      }),
    ).toBe(4);
    // 1 + ceil(10 × 50 / 200) + 18.
    expect(
      costOf('query($f: PersonFilter) { companies(first: 10) { nodes { people(first: 50, filter: $f) { nodes { id } } } } }', { f: manyContains(100) }),
    ).toBe(1 + 3 + 18);
    // Ten text matches on a deal's people: 160 of work, 1 + 6.
    const tenOnPeople = { people: { some: { or: Array.from({ length: 10 }, (_, i) => ({ lastName: { contains: `x${i}` } })) } } };
    expect(costOf('query($f: DealFilter) { deals(filter: $f) { nodes { id } } }', { f: tenOnPeople })).toBe(7);
    // A refused value costs nothing here: the list refuses it when it runs.
    expect(costOf('{ people(filter: { lastName: { contains: 1 } }) { nodes { id } } }')).toBe(1);
  });

  it('every field of every *Filter input is work (none free), and the text-match names are the schema’s', () => {
    const filterTypes = Object.values(schema.getTypeMap()).filter((t): t is GraphQLInputObjectType => isInputObjectType(t) && t.name.endsWith('Filter'));
    expect(filterTypes.length).toBeGreaterThan(10);
    /** Some value of `type` holding one condition (the first field that is not the type itself). */
    const sample = (type: GraphQLInputType): unknown => {
      const t = getNullableType(type);
      if (isListType(t)) return [sample(t.ofType as GraphQLInputType)];
      if (isLeafType(t)) return 'v';
      const object = t as GraphQLInputObjectType;
      const field = Object.values(object.getFields()).find((f) => getNamedType(f.type) !== object)!;
      return { [field.name]: sample(field.type) };
    };
    const free: string[] = [];
    for (const type of filterTypes) {
      for (const field of Object.values(type.getFields())) {
        if (getNamedType(field.type) === type) continue; // and/or/not: composition
        if (filterWork(type, { [field.name]: sample(field.type) }) < CONDITION_WORK) free.push(`${type.name}.${field.name}`);
      }
    }
    expect(free).toEqual([]);
    const named = new Set(filterTypes.flatMap((t) => Object.keys(t.getFields())));
    for (const name of TEXT_MATCH_NAMES) expect(named).toContain(name);
  });
});
