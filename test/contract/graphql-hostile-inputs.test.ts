import 'reflect-metadata';
import {
  GraphQLError,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  getNullableType,
  isInputObjectType,
  isListType,
  parse,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import { createJitGateway } from '../../src/graphql/executor';
import { MAX_FILTER_DEPTH } from '../../src/graphql/filters';
import { MAX_INPUT_DEPTH } from '../../src/graphql/limits';
import { createSchema } from '../../src/app/schema';
import { fixtures } from '../support/fixtures';
import { openServerWithAccount, startTestServer, type TestResponse, type TestServer } from '../support/test-server';

/**
 * Inputs that used to answer an internal error (500 / INTERNAL_SERVER_ERROR): a filter variable
 * nested 50,000 deep (stack overflow in the input checks), forged cursors whose values do not
 * fit their order keys (PostgreSQL refused them), and a non-null variable left to its default
 * (graphql-jit ignored it). Each is now a 4xx client error naming what is wrong, and writes nothing.
 */

type Body = { data?: any; errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }> };

/** Runs `fn` over `items`, `width` at a time (the requests are independent). */
async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

describe('GraphQL hostile inputs', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    ({ server, key } = await openServerWithAccount());
  }, 60_000);
  afterAll(() => server.close());

  const raw = (body: string) => server.request('POST', '/graphql', { body, contentType: 'application/json', headers: { authorization: `Bearer ${key}` } });

  function expect400(res: TestResponse, message: RegExp): void {
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toMatch(message);
    expect(res.body.data ?? null).toBeNull();
  }

  describe('input nesting', () => {
    const PEOPLE = 'query($f: PersonFilter) { people(filter: $f) { totalCount } }';
    /** A JSON request body whose variable `f` is `open` × depth, `leaf`, `close` × depth (built as text: JSON.stringify would overflow). */
    const deepBody = (query: string, depth: number, open: string, leaf: string, close: string, name = 'f') =>
      `{"query":${JSON.stringify(query)},"variables":{"${name}":${open.repeat(depth)}${leaf}${close.repeat(depth)}}}`;

    it('a PersonFilter variable nested 50,000 deep (and, or, not) is a 400 naming the argument path', async () => {
      const and = await raw(deepBody(PEOPLE, 50_000, '{"and":[', '{}', ']}'));
      expect400(and, /^Input people\.filter(\.and\[0\]){10} \(variable \$f\) is nested too deeply: more than 20 levels of input objects and lists$/);
      const or = await raw(deepBody(PEOPLE, 50_000, '{"or":[', '{}', ']}'));
      expect400(or, /^Input people\.filter(\.or\[0\]){10} \(variable \$f\) is nested too deeply/);
      const not = await raw(deepBody(PEOPLE, 50_000, '{"not":', '{}', '}'));
      expect400(not, /^Input people\.filter(\.not){20} \(variable \$f\) is nested too deeply: more than 20 levels/);
      // Nested inside an inline literal, the variable's levels add to the literal's.
      const inside = await raw(deepBody('query($f: PersonFilter!) { people(filter: {and: [{not: $f}]}) { totalCount } }', 50_000, '{"not":', '{}', '}'));
      expect400(inside, /^Input people\.filter\.and\[0\]\.not(\.not){17} \(variable \$f\) is nested too deeply/);
      expect(and.text).not.toMatch(/call stack/i);
    }, 30_000);

    it('deep lists where objects or scalars are expected are left to coercion: 400, never a stack overflow', async () => {
      const orderBy = await raw(deepBody('query($o: [PersonOrder!]) { people(orderBy: $o) { totalCount } }', 50_000, '[', '1', ']', 'o'));
      expect(orderBy.status).toBe(400);
      expect(orderBy.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const first = await raw(deepBody('query($n: Int) { people(first: $n) { totalCount } }', 50_000, '[', '1', ']', 'n'));
      expect(first.status).toBe(400);
      expect(first.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const unknownField = await raw(deepBody(PEOPLE, 1, '{"nope":', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]', '}'));
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }, 30_000);

    it('a JSON value nested 50,000 deep in a mutation is refused at 20 levels, and nothing is written', async () => {
      const mutation = 'mutation($c: JSONObject) { createPerson(input: {lastName: "DeepJson", customFields: $c}) { person { databaseId } } }';
      const res = await raw(deepBody(mutation, 50_000, '{"a":', '1', '}', 'c'));
      expect400(res, /^Input createPerson\.input\.customFields \(variable \$c\) is nested too deeply: more than 20 levels$/);
      const list = await raw(deepBody(mutation, 50_000, '{"a":[', '1', ']}', 'c'));
      expect400(list, /customFields \(variable \$c\) is nested too deeply: more than 20 levels$/);
      expect(await server.sql(`select id from people where last_name = 'DeepJson'`)).toEqual([]);
    }, 30_000);

    it('inline literals and variable defaults are held to the same depth (the document itself stops at 64 brackets)', async () => {
      const literal = (depth: number) => `${'{and: ['.repeat(depth)}{}${']}'.repeat(depth)}`;
      expect400(
        await server.graphql(key, `{ people(filter: ${literal(25)}) { totalCount } }`),
        /^Input people\.filter(\.and\[0\]){10} is nested too deeply: more than 20 levels/,
      );
      expect400(
        await server.graphql(key, `query($f: PersonFilter = ${literal(25)}) { people(filter: $f) { totalCount } }`),
        /^Input people\.filter(\.and\[0\]){10} \(variable \$f\) is nested too deeply/,
      );
      const tooDeepToParse = await server.graphql(key, `{ people(filter: ${literal(40)}) { totalCount } }`);
      expect(tooDeepToParse.status).toBe(400);
      expect(tooDeepToParse.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    });

    it('the deepest legitimate filter (and/or/not 5 levels, then customFields choice in) passes, as a variable and inline', async () => {
      const leaf = { customFields: [{ label: 'custom_label_1', choice: { in: [1, 2] } }] };
      let filter: Record<string, unknown> = leaf;
      for (let i = 0; i < MAX_FILTER_DEPTH; i++) filter = i % 2 ? { or: [filter, { not: { databaseId: { eq: 1 } } }] } : { and: [filter] };
      const asVariable = await server.graphql(key, PEOPLE, { f: filter });
      expect(asVariable.body.errors).toBeUndefined();
      expect(asVariable.body.data.people.totalCount).toBe(0);
      const inline = JSON.stringify(filter).replace(/"([a-zA-Z_]+)":/g, '$1: ');
      const asLiteral = await server.graphql(key, `{ people(filter: ${inline}) { totalCount } }`);
      expect(asLiteral.body.errors).toBeUndefined();
      // One more level is the filter compiler's own refusal, still a client error naming the path.
      const six = await server.graphql(key, PEOPLE, { f: { not: filter } });
      expect(six.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
      expect(six.body.errors[0].message).toMatch(/and\/or\/not may nest at most 5 levels/);
    });

    it('MAX_INPUT_DEPTH lets the deepest argument of the schema through (and/or/not counted to their own limit)', () => {
      const schema = createSchema();
      const deepest = (type: GraphQLInputType, logic: number): number => {
        const inner = getNullableType(type) as GraphQLInputType;
        if (isListType(inner)) return 1 + deepest(inner.ofType, logic);
        if (!isInputObjectType(inner)) return 0;
        let below = 0;
        for (const field of Object.values(inner.getFields())) {
          const composing = ['and', 'or', 'not'].includes(field.name);
          if (!composing || logic < MAX_FILTER_DEPTH) below = Math.max(below, deepest(field.type, composing ? logic + 1 : logic));
        }
        return 1 + below;
      };
      let max = 0;
      for (const type of Object.values(schema.getTypeMap())) {
        if (!(type instanceof GraphQLObjectType) || type.name.startsWith('__')) continue;
        for (const field of Object.values(type.getFields())) for (const arg of field.args) max = Math.max(max, deepest(arg.type, 0));
      }
      // Deals' filters on related records (`people: {some: PersonFilter}`) are the deepest (17 levels
      // as `deals(filter:)`), two more inside `startExport(input: {filter: {deals: ...}})`.
      expect(max).toBe(19);
      expect(max).toBeLessThanOrEqual(MAX_INPUT_DEPTH);
    });
  });

  describe('variable defaults', () => {
    it('an absent non-null variable takes its default (graphql-jit alone reported it missing)', async () => {
      const id = await fixtures.person(server, key, { lastName: 'Defaulted' });
      const res = await server.graphql(key, `query($i: Int! = ${id}) { person(id: $i) { databaseId } }`);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data).toEqual({ person: { databaseId: id } });
      const plain = await server.graphql(key, 'query($i: Int! = 1) { person(id: $i) { databaseId } }');
      expect(plain.body.errors).toBeUndefined();
      // Enums (by name), input objects, and a cyclic filter type (declared as JSON to jit).
      const orders = await server.graphql(
        key,
        `query($o: [PersonOrder!]! = [{field: CREATED_AT, direction: DESC}], $f: PersonFilter! = {databaseId: {eq: ${id}}}, $n: Int! = 5) {
        people(orderBy: $o, filter: $f, first: $n) { nodes { databaseId } }
      }`,
      );
      expect(orders.body.errors).toBeUndefined();
      expect(orders.body.data.people.nodes).toEqual([{ databaseId: id }]);
      // A sent value wins over the default.
      const sent = await server.graphql(key, 'query($i: Int! = 1) { person(id: $i) { databaseId } }', { i: id });
      expect(sent.body.data).toEqual({ person: { databaseId: id } });
    });

    it('a default fills a mutation input; an explicit null for a non-null variable is a 400 and writes nothing', async () => {
      const mutation =
        'mutation($i: PersonCreateInput! = {lastName: "FromDefault", type: LEAD}) { createPerson(input: $i) { person { lastName type } userErrors { field } } }';
      const made = await server.graphql(key, mutation);
      expect(made.body.errors).toBeUndefined();
      expect(made.body.data.createPerson).toEqual({ person: { lastName: 'FromDefault', type: 'LEAD' }, userErrors: [] });
      const refused = await server.graphql(key, mutation.replace('FromDefault', 'NullSent'), { i: null });
      expect400(refused, /^Variable "\$i" of non-null type "PersonCreateInput!" must not be null\.$/);
      expect(await server.sql(`select id from people where last_name = 'NullSent'`)).toEqual([]);
    });

    it('a variable graphql-jit refuses on its own is a BAD_USER_INPUT client error, not an internal one', async () => {
      // A scalar graphql-js accepts (first parse) and graphql-jit then refuses (second parse).
      let parses = 0;
      const Flaky = new GraphQLScalarType({
        name: 'Flaky',
        parseValue: (value) => {
          if (++parses % 2 === 0) throw new TypeError('refused the second time');
          return value;
        },
      });
      const schema = new GraphQLSchema({
        query: new GraphQLObjectType({ name: 'Query', fields: { echo: { type: GraphQLInt, args: { v: { type: Flaky } }, resolve: () => 1 } } }),
      });
      const document = parse('query($v: Flaky) { echo(v: $v) }');
      const gateway = createJitGateway(schema);
      const { executor } = await gateway.load({ apollo: {} } as never);
      const result = await executor!({
        queryHash: 'flaky',
        operationName: null,
        document,
        operation: document.definitions[0] as OperationDefinitionNode,
        request: { variables: { v: 1 } },
        context: {},
      } as never);
      expect(result.data).toBeUndefined();
      const errors = result.errors as GraphQLError[];
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(GraphQLError);
      expect(errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(errors[0].message).toMatch(/\$v/);
      await gateway.stop();
    });
  });

  describe('cursors', () => {
    type KeyType = 'text' | 'int' | 'timestamp';
    type Field = readonly [name: string, type: KeyType, nullable: boolean];
    /** What each order field holds: the contract the forged values break. */
    const PERSON_FIELDS: readonly Field[] = [
      ['ID', 'int', false],
      ['FIRST_NAME', 'text', true],
      ['LAST_NAME', 'text', false],
      ['EMAIL', 'text', true],
      ['POSITION', 'text', true],
      ['TYPE', 'text', false],
      ['OWNER_ID', 'int', true],
      ['COMPANY_ID', 'int', true],
      ['COMPANY_NAME', 'text', true],
      ['LEAD_STATUS_ID', 'int', true],
      ['LEAD_SOURCE_ID', 'int', true],
      ['WORK_CITY', 'text', true],
      ['WORK_STATE', 'text', true],
      ['WORK_COUNTRY', 'text', true],
      ['WORK_POSTAL_CODE', 'text', true],
      ['CONVERTED_AT', 'timestamp', true],
      ['LAST_EMAILED_AT', 'timestamp', true],
      ['CREATED_AT', 'timestamp', false],
      ['UPDATED_AT', 'timestamp', false],
    ];
    const COMPANY_FIELDS: readonly Field[] = [
      ['ID', 'int', false],
      ['NAME', 'text', false],
      ['CITY', 'text', true],
      ['STATE', 'text', true],
      ['COUNTRY', 'text', true],
      ['POSTAL_CODE', 'text', true],
      ['EMAIL', 'text', true],
      ['OWNER_ID', 'int', true],
      ['CREATED_AT', 'timestamp', false],
      ['UPDATED_AT', 'timestamp', false],
    ];
    const USER_FIELDS: readonly Field[] = [
      ['ID', 'int', false],
      ['EMAIL', 'text', false],
      ['FIRST_NAME', 'text', true],
      ['LAST_NAME', 'text', true],
      ['CREATED_AT', 'timestamp', false],
    ];
    const LIST_ITEM_FIELDS: readonly Field[] = [
      ['POSITION', 'int', false],
      ['NAME', 'text', false],
      ['ID', 'int', false],
      ['CREATED_AT', 'timestamp', false],
      ['UPDATED_AT', 'timestamp', false],
    ];

    /** Values of the wrong type for each key type, as JSON text (so `1e400`, which JSON.stringify cannot write, is one). */
    const WRONG: Record<KeyType, readonly string[]> = {
      text: ['0', '1.5', 'true', 'false', '{}', '[]', '["a"]', JSON.stringify('x'.repeat(1001)), '"a\\u0000b"', '"\\ud800"'],
      int: ['"garbage"', '"1"', '1.5', '1e+308', '1e400', '2147483648', '-2147483649', 'true', '"2026-11-24 10:00:00+00"', '[]', '{}'],
      timestamp: [
        '"garbage"',
        '"2026-13-45T00:00:00Z"',
        '"2026-13-45 00:00:00+00"',
        '"2026-02-30 10:00:00+00"',
        '"2023-02-29 10:00:00+00"',
        '"2026-11-24 24:00:00+00"',
        '"2026-11-24 10:60:00+00"',
        '"2026-11-24 10:00:00+16"',
        '"2026-11-24T10:00:00Z"',
        '""',
        '"infinity"',
        '"0000-01-01 00:00:00+00"',
        '"4714-01-01 00:00:00+00 BC"',
        '"10001-01-01 00:00:00+00"',
        '"2026-11-24 10:00:00.1234567+00"',
        '1700000000000',
        'true',
      ],
    };
    /** The row id ending every cursor: a positive integer. */
    const WRONG_ID = [...WRONG.int, '0', '-1', 'null'];
    /** Values of the right type a client could still forge: PostgreSQL must take them (no 500). */
    const FITTING: Record<KeyType, readonly string[]> = {
      text: ['""', '"ü"', '"😀"', `"'; drop table people; --"`, JSON.stringify('x'.repeat(1000))],
      int: ['0', '-2147483648', '2147483647', '-0'],
      timestamp: [
        '"2024-02-29 00:00:00+00"',
        '"2026-11-24 10:00:00.1+05:30"',
        '"9999-12-31 23:59:59.999999+00"',
        '"0001-01-01 00:00:00+00:09:21 BC"',
        '"4713-01-01 00:00:00+15 BC"',
        '"10000-12-31 23:59:59.999999-15:59:59"',
      ],
    };

    const decode = (cursor: string): string[] => (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[]).map((v) => JSON.stringify(v));
    /** The cursor with its value at `index` (0: the order key, 1: the id) replaced by the JSON text `value`. */
    const forge = (cursor: string, index: number, value: string) => {
      const parts = decode(cursor);
      parts[1 + index] = value;
      return Buffer.from(`[${parts.join(',')}]`, 'utf8').toString('base64url');
    };

    /** One connection: how to ask for a page of it, ordered by one field. */
    interface Connection {
      readonly name: string;
      readonly fields: readonly Field[];
      /** A query reading `databaseId`s and cursors; `$after`, `$before`, `$first`, `$last`, `$orderBy` as usual. */
      readonly query: string;
      /** The page (`{edges, pageInfo}`) in the response data. */
      readonly page: (data: any) => { edges: Array<{ cursor: string; node: { databaseId: number } }>; pageInfo: any };
    }
    const PAGE_ARGS = 'first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy';
    const SELECTION = '{ edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }';
    const vars = (orderType: string) => `$first: Int, $after: String, $last: Int, $before: String, $orderBy: [${orderType}!]`;
    let companyWithPeople: number;
    const connections = (): Connection[] => [
      { name: 'people', fields: PERSON_FIELDS, query: `query(${vars('PersonOrder')}) { people(${PAGE_ARGS}) ${SELECTION} }`, page: (d) => d.people },
      { name: 'companies', fields: COMPANY_FIELDS, query: `query(${vars('CompanyOrder')}) { companies(${PAGE_ARGS}) ${SELECTION} }`, page: (d) => d.companies },
      { name: 'users', fields: USER_FIELDS, query: `query(${vars('UserOrder')}) { users(${PAGE_ARGS}) ${SELECTION} }`, page: (d) => d.users },
      ...['LEAD_STATUS', 'LEAD_SOURCE', 'CONTACT_TAG', 'NOTE_CATEGORY'].map((kind) => ({
        name: `listItems(${kind})`,
        fields: LIST_ITEM_FIELDS,

        query: `query(${vars('ListItemOrder')}) { listItems(kind: ${kind}, ${PAGE_ARGS}) ${SELECTION} }`,
        page: (d: any) => d.listItems,
      })),
      {
        name: 'Company.people',
        fields: PERSON_FIELDS,

        query: `query(${vars('PersonOrder')}) { companies(first: 1, filter: {databaseId: {eq: ${companyWithPeople}}}) { nodes { people(${PAGE_ARGS}) ${SELECTION} } } }`,
        page: (d) => d.companies.nodes[0].people,
      },
    ];

    /** The key of an account of its own: the rows below, and no others. */
    let ck: string;

    beforeAll(async () => {
      const account = await server.createAccount();
      ck = account.admin.apiKey;
      const [uma, ugo] = [await account.addUser({ firstName: 'Uma', lastName: 'Zed' }), await account.addUser({ firstName: 'Ugo', lastName: 'Abe' })];
      const lists: Record<string, number[]> = {};
      for (const [kind, make] of Object.entries({
        status: fixtures.leadStatus,
        source: fixtures.leadSource,
        tag: fixtures.contactTag,
        note: fixtures.noteCategory,
      })) {
        lists[kind] = [
          await make(server, ck, { name: `B ${kind}` }),
          await make(server, ck, { name: `a ${kind}` }),
          await make(server, ck, { name: `C ${kind}` }),
        ];
      }
      const acme = await fixtures.company(server, ck, {
        name: 'Acme',
        city: 'Paris',
        state: 'IDF',
        country: 'France',
        postalCode: '75001',
        email: 'hi@acme.test',
        ownerId: uma.id,
      });
      const bolt = await fixtures.company(server, ck, { name: 'bolt', city: 'Lyon', ownerId: ugo.id });
      await fixtures.company(server, ck, { name: 'Core' });
      companyWithPeople = acme;
      const person = (attrs: Record<string, unknown>) => fixtures.person(server, ck, attrs);
      await person({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@x.test',
        position: 'Countess',
        type: 'LEAD',
        ownerId: uma.id,
        companyId: acme,
        leadStatusId: lists.status[0],
        leadSourceId: lists.source[0],
        workCity: 'London',
        workState: 'LDN',
        workCountry: 'UK',
        workPostalCode: 'N1',
        lastEmailedAt: '2026-01-02T03:04:05.678Z',
      });
      await person({
        firstName: 'alan',
        lastName: 'Turing',
        email: 'alan@x.test',
        position: 'Fellow',
        ownerId: ugo.id,
        companyId: acme,
        leadStatusId: lists.status[1],
        workCity: 'manchester',
        lastEmailedAt: '2025-06-01T00:00:00Z',
      });
      await person({ firstName: null, lastName: 'lovelace', companyId: acme });
      await person({ firstName: 'Grace', lastName: 'Hopper', companyId: acme, workCountry: 'US' });
      await person({ firstName: 'Kurt', lastName: 'Gödel', companyId: bolt, type: 'LEAD', leadSourceId: lists.source[2] });
      await person({ lastName: 'Alone' });
      await server.sql(`update people set converted_at = created_at - interval '1 day' where account_id = ? and last_name in ('Lovelace', 'Hopper')`, [
        account.accountId,
      ]);
    }, 60_000);

    /** A real cursor of the connection ordered by `field` (the first row's). */
    async function realCursor(c: Connection, field: string): Promise<string> {
      const res = await server.graphql(ck, c.query, { first: 2, orderBy: [{ field, direction: 'ASC' }] });
      expect(res.body.errors).toBeUndefined();
      const cursor = c.page(res.body.data).edges[0].cursor;
      expect(decode(cursor)).toHaveLength(3); // signature, the key, the id
      return cursor;
    }

    it('a forged cursor of the wrong value types is BAD_USER_INPUT "invalid cursor" on every connection and order field, never a 500', async () => {
      const cases: Array<{ c: Connection; field: string; cursor: string; backward: boolean }> = [];
      for (const c of connections()) {
        for (const [field, type, nullable] of c.fields) {
          const cursor = await realCursor(c, field);
          const forKey = [...WRONG[type], ...(nullable ? [] : ['null'])].map((v) => forge(cursor, 0, v));
          const forId = WRONG_ID.map((v) => forge(cursor, 1, v));
          for (const forged of [...forKey, ...forId]) cases.push({ c, field, cursor: forged, backward: false });
          // `before` goes through the same decoding: a sample of each.
          cases.push({ c, field, cursor: forKey[0], backward: true }, { c, field, cursor: forId[0], backward: true });
        }
      }
      const failures: string[] = [];
      await pool(cases, 4, async ({ c, field, cursor, backward }) => {
        const variables = { orderBy: [{ field, direction: 'ASC' }], ...(backward ? { last: 2, before: cursor } : { first: 2, after: cursor }) };
        const res = await server.graphql(ck, c.query, variables);
        const body = res.body as Body;
        const error = body.errors?.[0];
        const fine =
          res.status < 500 &&
          body.errors?.length === 1 &&
          error?.extensions?.code === 'BAD_USER_INPUT' &&
          error.extensions.argument === (backward ? 'before' : 'after') &&
          /invalid cursor/.test(error.message);
        if (!fine) failures.push(`${c.name} ${field} ${Buffer.from(cursor, 'base64url').toString('utf8')}: ${res.status} ${res.text.slice(0, 300)}`);
      });
      expect(failures).toEqual([]);
      expect(cases.length).toBeGreaterThan(1000);
    }, 120_000);

    it('a forged cursor of the right value types is answered (PostgreSQL takes every value the check lets through)', async () => {
      const failures: string[] = [];
      const cases: Array<{ c: Connection; field: string; cursor: string }> = [];
      for (const c of connections()) {
        for (const [field, type, nullable] of c.fields) {
          const cursor = await realCursor(c, field);
          for (const v of [...FITTING[type], ...(nullable ? ['null'] : [])]) cases.push({ c, field, cursor: forge(cursor, 0, v) });
          for (const v of ['1', '2147483647']) cases.push({ c, field, cursor: forge(cursor, 1, v) });
        }
      }
      await pool(cases, 4, async ({ c, field, cursor }) => {
        const res = await server.graphql(ck, c.query, { first: 2, after: cursor, orderBy: [{ field, direction: 'ASC' }] });
        if (res.status !== 200 || res.body.errors)
          failures.push(`${c.name} ${field} ${Buffer.from(cursor, 'base64url').toString('utf8')}: ${res.status} ${res.text.slice(0, 300)}`);
      });
      expect(failures).toEqual([]);
    }, 120_000);

    it('a cursor from another orderBy or another list is still refused as such', async () => {
      const [people, companies] = connections();
      const byName = await realCursor(people, 'LAST_NAME');
      const res = await server.graphql(ck, people.query, { first: 2, after: byName, orderBy: [{ field: 'FIRST_NAME', direction: 'ASC' }] });
      expect(res.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'after' }));
      expect(res.body.errors[0].message).toMatch(/^after: invalid cursor for this list \(issued for another order or list\)/);
      const other = await server.graphql(ck, companies.query, { first: 2, after: byName, orderBy: [{ field: 'NAME', direction: 'ASC' }] });
      expect(other.body.errors[0].message).toMatch(/invalid cursor for this list \(issued for another order or list\)/);
      const desc = await server.graphql(ck, people.query, { first: 2, after: byName, orderBy: [{ field: 'LAST_NAME', direction: 'DESC' }] });
      expect(desc.body.errors[0].message).toMatch(/issued for another order or list/);
    });

    it('the refusal names the value and what it should be', async () => {
      const [people] = connections();
      const cursor = await realCursor(people, 'CREATED_AT');
      const ask = (forged: string) => server.graphql(ck, people.query, { first: 2, after: forged, orderBy: [{ field: 'CREATED_AT', direction: 'ASC' }] });
      expect((await ask(forge(cursor, 0, '"2026-13-45T00:00:00Z"'))).body.errors[0].message).toBe(
        'after: invalid cursor for this list (value 1 is not a timestamp); use a cursor this list returned with the same orderBy',
      );
      expect((await ask(forge(cursor, 0, 'null'))).body.errors[0].message).toMatch(/\(value 1 cannot be null\)/);
      expect((await ask(forge(cursor, 1, '1.5'))).body.errors[0].message).toMatch(/\(value 2 is not an integer\)/);
      expect((await ask(forge(cursor, 1, '0'))).body.errors[0].message).toMatch(/\(malformed\)/);
      const byName = await realCursor(people, 'LAST_NAME');
      const res = await server.graphql(ck, people.query, { first: 2, after: forge(byName, 0, '5'), orderBy: [{ field: 'LAST_NAME', direction: 'ASC' }] });
      expect(res.status).toBe(200); // a field error beside null data, as any argument error
      expect(res.body.errors[0].message).toMatch(/\(value 1 is not a text of at most 1000 characters\)/);
    });

    it('real cursors of every order field, both directions, page through the same rows as one big page', async () => {
      const failures: string[] = [];
      const cases = connections().flatMap((c) =>
        c.fields.flatMap(([field]) => (['ASC', 'DESC'] as const).map((direction) => ({ c, orderBy: [{ field, direction }] }))),
      );
      await pool(cases, 4, async ({ c, orderBy }) => {
        const all = await server.graphql(ck, c.query, { first: 200, orderBy });
        const expected = c.page(all.body.data).edges.map((e) => e.node.databaseId);
        const forward: number[] = [];
        let after: string | null = null;
        for (let guard = 0; guard < 20; guard++) {
          const res: TestResponse = await server.graphql(ck, c.query, { first: 2, after, orderBy });
          const page = c.page(res.body.data);
          forward.push(...page.edges.map((e) => e.node.databaseId));
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
        }
        const backward: number[] = [];
        let before: string | null = null;
        for (let guard = 0; guard < 20; guard++) {
          const res: TestResponse = await server.graphql(ck, c.query, { last: 2, before, orderBy });
          const page = c.page(res.body.data);
          backward.unshift(...page.edges.map((e) => e.node.databaseId));
          if (!page.pageInfo.hasPreviousPage) break;
          before = page.pageInfo.startCursor;
        }
        const label = `${c.name} ${orderBy[0].field} ${orderBy[0].direction}`;
        if (expected.length < 3) failures.push(`${label}: only ${expected.length} rows`);
        if (JSON.stringify(forward) !== JSON.stringify(expected)) failures.push(`${label} forward: ${forward} != ${expected}`);
        if (JSON.stringify(backward) !== JSON.stringify(expected)) failures.push(`${label} backward: ${backward} != ${expected}`);
      });
      expect(failures).toEqual([]);
    }, 120_000);
  });
});

describe('input coercion as the GraphQL spec has it', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  it("a single object where a list is expected is a list of one, with its fields' defaults (variable and default alike)", async () => {
    const sent = await server.graphql(key, 'query($o: [PersonOrder!]) { people(orderBy: $o) { totalCount } }', { o: { field: 'LAST_NAME' } });
    expect(sent.status).toBe(200);
    expect(sent.body.errors).toBeUndefined();
    const defaulted = await server.graphql(key, 'query($o: [PersonOrder!] = {field: LAST_NAME}) { people(orderBy: $o) { totalCount } }');
    expect(defaulted.body.errors).toBeUndefined();
    const lists = await server.graphql(key, 'query($o: [ListItemOrder!]) { leadStatuses(orderBy: $o) { totalCount } }', { o: { field: 'NAME' } });
    expect(lists.body.errors).toBeUndefined();
  });
});
