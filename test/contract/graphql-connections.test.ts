import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * The GraphQL API as front ends use it (issue: connections, Node ids, operator filters, payloads):
 * keyset paging over thousands of rows, filters with and/or/not, user errors, null lookups beside
 * found ones, global ids. People and companies.
 */

const PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String, $orderBy: [PersonOrder!], $filter: PersonFilter) {
  people(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy, filter: $filter) {
    edges { cursor node { databaseId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

const IDS = `query Ids($filter: PersonFilter, $orderBy: [PersonOrder!]) { people(filter: $filter, orderBy: $orderBy, first: 200) { nodes { databaseId } totalCount } }`;

describe('GraphQL connections, filters, payloads and ids', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  const gql = async (query: string, variables?: Record<string, unknown>, apiKey = key) => {
    const res = await server.graphql(apiKey, query, variables);
    return res.body as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
  };
  const ok = async (query: string, variables?: Record<string, unknown>, apiKey = key) => {
    const body = await gql(query, variables, apiKey);
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  describe('keyset paging across thousands of rows', () => {
    const COUNT = 2500;
    let expected: number[];

    beforeAll(async () => {
      // Many people sharing last names, some without a first name (nulls sort last ascending).
      await server.sql(
        `insert into people (account_id, owner_id, last_name, first_name, type, tag_ids, custom_fields, created_at, updated_at, unsubscribed, bounced)
         select ?, ?, 'Bulk' || (g % 37), case when g % 5 = 0 then null else 'F' || (g % 11) end, 'Contact', '[]', '{}',
                now() - (g || ' minutes')::interval, now(), false, false
         from generate_series(1, ?) g`,
        [account.accountId, account.admin.id, COUNT],
      );
      const rows = await server.sql<{ id: number }>(`select id from people where account_id = ? order by lower(last_name) asc, lower(first_name) asc, id asc`, [
        account.accountId,
      ]);
      expected = rows.map((r) => Number(r.id));
      expect(expected).toHaveLength(COUNT);
    }, 60_000);

    it('walks every page forward with first/after: each row once, in order, and the flags are right', async () => {
      const seen: number[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const data: any = await ok(PAGE, { first: 200, after });
        const { edges, pageInfo } = data.people;
        seen.push(...edges.map((e: any) => e.node.databaseId));
        expect(pageInfo.hasPreviousPage).toBe(pages > 0);
        expect(pageInfo.startCursor).toBe(edges[0]?.cursor ?? null);
        expect(pageInfo.endCursor).toBe(edges[edges.length - 1]?.cursor ?? null);
        pages++;
        if (!pageInfo.hasNextPage) break;
        after = pageInfo.endCursor;
      }
      expect(pages).toBe(Math.ceil(COUNT / 200));
      expect(seen).toEqual(expected);
    }, 60_000);

    it('walks backward with last/before to the same order', async () => {
      const seen: number[] = [];
      let before: string | null = null;
      for (;;) {
        const data: any = await ok(PAGE, { last: 200, before });
        const { edges, pageInfo } = data.people;
        seen.unshift(...edges.map((e: any) => e.node.databaseId));
        if (!pageInfo.hasPreviousPage) break;
        before = pageInfo.startCursor;
      }
      expect(seen).toEqual(expected);
    }, 60_000);

    it('keeps its place when rows are added before the cursor (no offset drift)', async () => {
      const first: any = await ok(PAGE, { first: 100 });
      const inserted = await server.sql<{ id: number }>(
        `insert into people (account_id, owner_id, last_name, type, tag_ids, custom_fields, created_at, updated_at, unsubscribed, bounced)
         values (?, ?, 'Aaaa', 'Contact', '[]', '{}', now(), now(), false, false) returning id`,
        [account.accountId, account.admin.id],
      );
      try {
        const next: any = await ok(PAGE, { first: 100, after: first.people.pageInfo.endCursor });
        expect(next.people.edges.map((e: any) => e.node.databaseId)).toEqual(expected.slice(100, 200));
      } finally {
        await server.sql('delete from people where id = ?', [inserted[0].id]);
      }
    });

    it('orders by several keys with directions, nulls included, and pages through them', async () => {
      const orderBy = [
        { field: 'FIRST_NAME', direction: 'DESC' },
        { field: 'CREATED_AT', direction: 'ASC' },
      ];
      const rows = await server.sql<{ id: number }>(`select id from people where account_id = ? order by lower(first_name) desc, created_at asc, id asc`, [
        account.accountId,
      ]);
      const seen: number[] = [];
      let after: string | null = null;
      for (;;) {
        const data: any = await ok(PAGE, { first: 150, after, orderBy });
        seen.push(...data.people.edges.map((e: any) => e.node.databaseId));
        if (!data.people.pageInfo.hasNextPage) break;
        after = data.people.pageInfo.endCursor;
      }
      expect(seen).toEqual(rows.map((r) => Number(r.id)));
    }, 60_000);

    it('offset paging stays available on the same field, with totalCount', async () => {
      const data = await ok(`{ people(page: 3, perPage: 50) { nodes { databaseId } totalCount pageInfo { hasNextPage hasPreviousPage } } }`);
      expect(data.people.nodes.map((n: any) => n.databaseId)).toEqual(expected.slice(100, 150));
      expect(data.people.totalCount).toBe(COUNT);
      expect(data.people.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    });

    it('refuses a malformed cursor, a cursor of another order, and mixed paging arguments, naming the argument', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ first: 10, after: 'not-a-cursor!' }, 'after'],
        [{ first: 10, after: Buffer.from('["x",1]').toString('base64url') }, 'after'],
        [{ first: 10, after: (await ok(PAGE, { first: 1, orderBy: [{ field: 'CREATED_AT', direction: 'ASC' }] })).people.pageInfo.endCursor }, 'after'],
        [{ first: 10, last: 10 }, 'last'],
        [{ first: 201 }, 'first'],
        [{ first: -1 }, 'first'],
      ];
      for (const [variables, argument] of cases) {
        const body = await gql(PAGE, variables);
        expect(body.data?.people ?? null).toBeNull();
        expect(body.errors?.[0]?.extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', argument }));
      }
      const mixed = await gql('{ people(page: 2, first: 5) { nodes { databaseId } } }');
      expect(mixed.errors?.[0]?.extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'page' }));
    });

    afterAll(async () => {
      // In batches: each delete records its tombstones, and one statement for them all can outlast the statement timeout on a loaded machine.
      for (;;) {
        const gone = await server.sql(
          `delete from people where id in (select id from people where account_id = ? and last_name like 'Bulk%' limit 500) returning id`,
          [account.accountId],
        );
        if (gone.length === 0) break;
      }
    });
  });

  describe('filters', () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      const make = async (input: Record<string, unknown>) => {
        const data = await ok('mutation ($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } userErrors { field } } }', {
          input,
        });
        expect(data.createPerson.userErrors).toEqual([]);
        return data.createPerson.person.databaseId as number;
      };
      ids = {
        ada: await make({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@engine.test', workCity: 'London', type: 'LEAD' }),
        alan: await make({ firstName: 'Alan', lastName: 'Turing', email: 'alan@bletchley.test', workCity: 'Manchester', companyName: 'Bletchley Park' }),
        grace: await make({ firstName: 'Grace', lastName: 'Hopper', email2: 'grace@navy.test', workCity: 'Arlington', companyName: 'Navy' }),
        nobody: await make({ lastName: 'Nameless' }),
      };
    });

    const matching = async (filter: Record<string, unknown>) => {
      const data = await ok(IDS, { filter: { and: [filter, { databaseId: { in: Object.values(ids) } }] } });
      return new Set(data.people.nodes.map((n: any) => n.databaseId));
    };

    it('string operators: eq (exact), in, contains and startsWith (ignoring case), isNull', async () => {
      expect(await matching({ lastName: { eq: 'Lovelace' } })).toEqual(new Set([ids.ada]));
      expect(await matching({ lastName: { eq: 'lovelace' } })).toEqual(new Set());
      expect(await matching({ lastName: { in: ['Turing', 'Hopper'] } })).toEqual(new Set([ids.alan, ids.grace]));
      expect(await matching({ workCity: { contains: 'CHEST' } })).toEqual(new Set([ids.alan]));
      expect(await matching({ workCity: { startsWith: 'lon' } })).toEqual(new Set([ids.ada]));
      expect(await matching({ firstName: { isNull: true } })).toEqual(new Set([ids.nobody]));
      expect(await matching({ anyEmail: { contains: 'navy' } })).toEqual(new Set([ids.grace]));
      expect(await matching({ companyName: { startsWith: 'bletch' } })).toEqual(new Set([ids.alan]));
      // LIKE wildcards are matched literally.
      expect(await matching({ lastName: { contains: '%' } })).toEqual(new Set());
    });

    it('ids, enums, dates and search', async () => {
      expect(await matching({ databaseId: { eq: ids.grace } })).toEqual(new Set([ids.grace]));
      expect(await matching({ type: { eq: 'LEAD' } })).toEqual(new Set([ids.ada]));
      expect(await matching({ companyId: { isNull: true } })).toEqual(new Set([ids.ada, ids.nobody]));
      expect(await matching({ createdAt: { gte: '2000-01-01T00:00:00Z', lt: '9999-01-01T00:00:00Z' } })).toEqual(new Set(Object.values(ids)));
      expect(await matching({ createdAt: { lt: '2000-01-01T00:00:00Z' } })).toEqual(new Set());
      expect(await matching({ search: 'navy' })).toEqual(new Set([ids.grace]));
    });

    it('composes with and, or and not', async () => {
      expect(await matching({ or: [{ lastName: { eq: 'Lovelace' } }, { workCity: { eq: 'Arlington' } }] })).toEqual(new Set([ids.ada, ids.grace]));
      expect(await matching({ not: { firstName: { startsWith: 'a' } } })).toEqual(new Set([ids.grace, ids.nobody]));
      expect(await matching({ and: [{ firstName: { startsWith: 'a' } }, { not: { type: { eq: 'LEAD' } } }] })).toEqual(new Set([ids.alan]));
      expect(await matching({ or: [] })).toEqual(new Set());
    });

    it('refuses filters nested too deep, too many values and out-of-range dates, naming the path', async () => {
      let deep: Record<string, unknown> = { lastName: { eq: 'x' } };
      for (let i = 0; i < 7; i++) deep = { not: deep };
      const tooDeep = await gql(IDS, { filter: deep });
      expect(tooDeep.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const many = await gql(IDS, { filter: { databaseId: { in: Array.from({ length: 501 }, (_, i) => i + 1) } } });
      expect(many.errors?.[0]?.extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'filter.databaseId.in' }));
      const year = await gql(IDS, { filter: { createdAt: { gte: '+010000-01-01T00:00:00Z' } } });
      expect(year.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const unknown = await gql(IDS, { filter: { shoeSize: { eq: 'x' } } });
      expect(unknown.errors?.[0]?.message).toContain('shoeSize');
    });
  });

  describe('payloads with user errors', () => {
    const CREATE =
      'mutation ($input: PersonCreateInput!, $options: PersonCreateOptions) { createPerson(input: $input, options: $options) { person { databaseId lastName } userErrors { field code message } } }';
    const UPDATE =
      'mutation ($id: Int!, $input: PersonUpdateInput!) { updatePerson(id: $id, input: $input) { person { databaseId } userErrors { field code message } } }';

    it('answers validation problems as userErrors with paths and codes, and writes nothing', async () => {
      const before = await server.sql<{ n: string }>('select count(*) as n from people where account_id = ?', [account.accountId]);
      const data = await ok(CREATE, { input: { lastName: ' ', firstName: 'x'.repeat(101), companyId: 2147483000 }, options: { todoTemplateId: 5 } });
      expect(data.createPerson.person).toBeNull();
      expect(data.createPerson.userErrors).toEqual(
        expect.arrayContaining([
          { field: ['input', 'lastName'], code: 'BLANK', message: "can't be blank" },
          { field: ['input', 'firstName'], code: 'TOO_LONG', message: 'is too long (maximum is 100 characters)' },
          { field: ['input', 'companyId'], code: 'NOT_FOUND', message: 'does not exist' },
          { field: ['options', 'todoTemplateId'], code: 'NOT_FOUND', message: 'does not exist' },
        ]),
      );
      const after = await server.sql<{ n: string }>('select count(*) as n from people where account_id = ?', [account.accountId]);
      expect(after[0].n).toBe(before[0].n);
    });

    it('a missing record is a NOT_FOUND user error on id; null clears a field, lastName cannot be cleared', async () => {
      const missing = await ok(UPDATE, { id: 2147483000, input: { firstName: 'x' } });
      expect(missing.updatePerson).toEqual({ person: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND', message: expect.any(String) }] });
      const created = await ok(CREATE, { input: { lastName: 'Clearable', position: 'CEO' } });
      const id = created.createPerson.person.databaseId;
      const cleared = await ok('mutation ($id: Int!) { updatePerson(id: $id, input: { position: null }) { person { position } userErrors { code } } }', { id });
      expect(cleared.updatePerson).toEqual({ person: { position: null }, userErrors: [] });
      const blank = await ok(UPDATE, { id, input: { lastName: null } });
      expect(blank.updatePerson.userErrors).toEqual([{ field: ['input', 'lastName'], code: 'BLANK', message: "can't be blank" }]);
      const deleted = await ok('mutation ($id: Int!) { deletePerson(id: $id) { deletedId deletedDatabaseId userErrors { code } } }', { id });
      expect(deleted.deletePerson).toEqual({ deletedId: expect.any(String), deletedDatabaseId: id, userErrors: [] });
      const again = await ok('mutation ($id: Int!) { deletePerson(id: $id) { deletedId userErrors { field code } } }', { id });
      expect(again.deletePerson).toEqual({ deletedId: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
    });

    it('a company without a name is a BLANK user error; a duplicate is refused as DUPLICATE on the record', async () => {
      const blank = await ok('mutation { createCompany(input: { name: "" }) { company { databaseId } userErrors { field code } } }');
      expect(blank.createCompany).toEqual({ company: null, userErrors: [{ field: ['input', 'name'], code: 'BLANK' }] });
      await ok('mutation { createCompany(input: { name: "Unique Co" }) { company { databaseId } } }');
      const dupe = await ok(
        'mutation { createCompany(input: { name: "unique co" }, options: { checkForDuplicates: true }) { company { databaseId } userErrors { field code } } }',
      );
      expect(dupe.createCompany).toEqual({ company: null, userErrors: [{ field: null, code: 'DUPLICATE' }] });
    });
  });

  describe('lookups and global ids', () => {
    let mine: number;
    let hidden: number;
    let own: { id: number; apiKey: string };
    beforeAll(async () => {
      own = await account.addUser({ visibility: Visibility.OWN });
      mine = (await ok('mutation { createPerson(input: { lastName: "Mine" }) { person { databaseId } } }', undefined, own.apiKey)).createPerson.person
        .databaseId;
      hidden = (await ok('mutation { createPerson(input: { lastName: "Hidden" }) { person { databaseId } } }')).createPerson.person.databaseId;
    });

    it('a missing or hidden record is null beside the found ones, without an error', async () => {
      const body = await gql(
        `query ($mine: Int!, $hidden: Int!) { found: person(id: $mine) { lastName } hidden: person(id: $hidden) { lastName } missing: person(id: 2147483000) { lastName } nothing: company(id: 0) { name } viewer { databaseId } }`,
        { mine, hidden },
        own.apiKey,
      );
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({ found: { lastName: 'Mine' }, hidden: null, missing: null, nothing: null, viewer: { databaseId: own.id } });
    });

    it('node and nodes resolve global ids, with null for hidden ones; a malformed id is refused', async () => {
      const { person } = await ok('query ($id: Int!) { person(id: $id) { id databaseId } }', { id: hidden });
      const { person: minePerson } = await ok('query ($id: Int!) { person(id: $id) { id } }', { id: mine }, own.apiKey);
      const asAdmin = await ok('query ($id: ID!) { node(id: $id) { __typename id ... on Person { databaseId lastName } } }', { id: person.id });
      expect(asAdmin.node).toEqual({ __typename: 'Person', id: person.id, databaseId: hidden, lastName: 'Hidden' });
      const asOwn = await ok('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [minePerson.id, person.id] }, own.apiKey);
      expect(asOwn.nodes).toEqual([{ id: minePerson.id }, null]);
      const bad = await gql('{ node(id: "bm90LWEtbm9kZQ") { id } }');
      expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const tooMany = await gql('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array(101).fill(person.id) });
      expect(tooMany.errors?.[0]?.extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'ids' }));
    });

    it('another account cannot resolve the ids', async () => {
      const other = await server.createAccount();
      const { person } = await ok('query ($id: Int!) { person(id: $id) { id } }', { id: hidden });
      const body = await ok('query ($id: ID!, $db: Int!) { node(id: $id) { id } person(id: $db) { id } }', { id: person.id, db: hidden }, other.admin.apiKey);
      expect(body).toEqual({ node: null, person: null });
    });
  });

  describe('nested connections', () => {
    it('Company.people pages by cursor for every company of a page', async () => {
      const made = await ok('mutation { createCompany(input: { name: "Nest Co" }) { company { databaseId } } }');
      const companyId = made.createCompany.company.databaseId;
      for (const lastName of ['N1', 'N2', 'N3', 'N4', 'N5'])
        await ok('mutation ($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } } }', { input: { lastName, companyId } });
      const query = `query ($id: Int!, $after: String) { companies(filter: { databaseId: { eq: $id } }) { nodes { people(first: 2, after: $after) { nodes { lastName } pageInfo { hasNextPage endCursor } totalCount } } } }`;
      const names: string[] = [];
      let after: string | null = null;
      for (;;) {
        const data: any = await ok(query, { id: companyId, after });
        const people = data.companies.nodes[0].people;
        expect(people.totalCount).toBe(5);
        names.push(...people.nodes.map((p: any) => p.lastName));
        if (!people.pageInfo.hasNextPage) break;
        after = people.pageInfo.endCursor;
      }
      expect(names).toEqual(['N1', 'N2', 'N3', 'N4', 'N5']);
    });
  });
});
