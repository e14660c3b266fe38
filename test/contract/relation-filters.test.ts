import { getNamedType, isInputObjectType, isObjectType, type GraphQLInputField, type GraphQLInputObjectType, type GraphQLSchema } from 'graphql';
import { relatedRecordsOf } from '../../src/graphql/filters';
import { createSchema } from '../../src/app/schema';
import { Visibility } from '../../src/modules/users/user.entity';
import { V3_ROUTES } from '../../rest-facade/routes';
import type { ConditionTable } from '../../src/kit/v3/conditions';
import { conditionTable } from '../../src/kit/v3/vocabulary';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * No filter on related records answers differently for a record the viewer may not see than for a
 * missing one (issue 21 §1). Derived from the schema: every filter field marked `relatedRecords`
 * (the related-records helpers mark each one), every value its input takes against a hidden record
 * (its id; every text condition of the related filter against a marker its text fields hold), and
 * every v3 condition that feeds such a field. A restricted user sees two twins of each filtered
 * type: `linked` to a record of every related type hidden from them, and `bare`, linked to
 * nothing. For the restricted user each filter must treat the twins alike (the hidden record is as
 * good as missing); for the admin, who sees the hidden records, some value of each filter must tell
 * them apart, or the world below does not exercise that filter (and the probe says what to add).
 */

/** Held by every text field of the hidden records; matched by `contains` conditions. */
const MARKER = 'zqhid';

interface Twins {
  readonly linked: number;
  readonly bare: number;
}

interface RelationFilter {
  /** The filtered type's filter input, e.g. DealFilter. */
  readonly filterType: string;
  /** The field, e.g. people. */
  readonly field: string;
  /** The related records' GraphQL type, e.g. Person. */
  readonly related: string;
  readonly input: GraphQLInputField;
}

function relationFilters(schema: GraphQLSchema): RelationFilter[] {
  const found: RelationFilter[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInputObjectType(type) || type.name.startsWith('__')) continue;
    for (const input of Object.values(type.getFields())) {
      const related = relatedRecordsOf(input);
      if (related) found.push({ filterType: type.name, field: input.name, related, input });
    }
  }
  return found;
}

/** Conditions of a related filter input against the hidden record: by id, and every text field against the marker. */
function recordConditions(filter: GraphQLInputObjectType, hiddenId: number): unknown[] {
  const values: unknown[] = [{ databaseId: { eq: hiddenId } }];
  for (const f of Object.values(filter.getFields())) {
    if (getNamedType(f.type).name === 'StringFilter') values.push({ [f.name]: { contains: MARKER } });
  }
  return values;
}

/** Every value the relation filter's input takes against the hidden record, derived from its type. */
function valuesOf(input: GraphQLInputField, hiddenId: number): unknown[] {
  const type = getNamedType(input.type);
  if (type.name === 'Int') return [hiddenId];
  if (type.name === 'IdFilter') return [{ eq: hiddenId }, { in: [hiddenId] }, { isNull: true }, { isNull: false }];
  if (!isInputObjectType(type)) throw new Error(`${input.name}: the probe does not know how to fill a ${type.name}`);
  const fields = type.getFields();
  if (fields.some && fields.none) {
    const inner = recordConditions(getNamedType(fields.some.type) as GraphQLInputObjectType, hiddenId);
    return [...inner.map((v) => ({ some: v })), ...inner.map((v) => ({ none: v }))];
  }
  if (fields.and && fields.databaseId) return recordConditions(type, hiddenId);
  throw new Error(`${input.name}: the probe does not know how to fill a ${type.name}`);
}

describe('filters on related records see only the related records the viewer may see', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let own: { id: number; apiKey: string };
  const schema = createSchema();
  const relations = relationFilters(schema);
  /** A record of each related type the restricted user may not see. */
  const hidden: Record<string, number> = {};
  /** Per filtered type: the twins the restricted user sees. */
  const twins: Record<string, Twins> = {};

  const create = async (type: string, input: Record<string, unknown>): Promise<number> => {
    const field = type[0].toLowerCase() + type.slice(1);
    const res = await server.graphql(
      admin,
      `mutation($input: ${type}CreateInput!) { create${type}(input: $input) { ${field} { databaseId } userErrors { field message } } }`,
      { input },
    );
    expect([type, res.body.errors, res.body.data?.[`create${type}`]?.userErrors]).toEqual([type, undefined, []]);
    return res.body.data[`create${type}`][field].databaseId;
  };

  beforeAll(async () => {
    ({ server, account, key: admin } = await openServerWithAccount());
    own = await account.addUser({ visibility: Visibility.OWN, isAdmin: false });
    const text = (what: string) => `${MARKER} ${what}`;
    const email = (what: string) => `${MARKER}.${what}@example.com`;

    // Hidden from the restricted user: the admin owns them and shares nothing.
    hidden.Company = await create('Company', {
      name: text('company'),
      email: email('company'),
      city: text('city'),
      state: text('state'),
      postalCode: MARKER,
      country: text('country'),
      website: text('web'),
      description: text('about'),
      address1: text('street'),
    });
    hidden.Person = await create('Person', {
      firstName: text('first'),
      lastName: text('last'),
      email: email('work'),
      email2: email('two'),
      homeEmail: email('home'),
      phone: MARKER,
      mobile: MARKER,
      homePhone: MARKER,
      workCity: text('city'),
      workState: text('state'),
      workPostalCode: MARKER,
      companyId: hidden.Company,
    });
    hidden.Deal = await create('Deal', { name: text('deal') });

    // Deals: linked has the hidden person and company; bare has neither.
    twins.Deal = {
      linked: await create('Deal', { name: 'Linked deal', ownerId: own.id, personIds: [hidden.Person], companyId: hidden.Company }),
      bare: await create('Deal', { name: 'Bare deal', ownerId: own.id }),
    };
    // People: linked takes part in the hidden deal; bare in none.
    twins.Person = {
      linked: await create('Person', { lastName: 'Linked person', ownerId: own.id }),
      bare: await create('Person', { lastName: 'Bare person', ownerId: own.id }),
    };
    await server.sql('insert into deal_people (deal_id, person_id) values (?, ?)', [hidden.Deal, twins.Person.linked]);
    // Calendar: a series of the restricted user's, one occurrence of which was handed to the admin
    // (hidden: they own it and it is about nothing); bare is an entry of no series.
    const base = await create('CalendarEntry', {
      kind: 'EVENT',
      name: 'Linked series',
      ownerId: own.id,
      startTime: '2026-12-01T09:00:00Z',
      endTime: '2026-12-01T10:00:00Z',
      rrule: 'FREQ=DAILY;COUNT=3',
    });
    const [occurrence] = await server.sql<{ id: number }>('select id from calendar_entries where base_entry_id = ? order by id limit 1', [base]);
    await server.sql('update calendar_entries set owner_id = ? where id = ?', [account.admin.id, occurrence.id]);
    hidden.CalendarEntry = occurrence.id;
    twins.CalendarEntry = {
      linked: base,
      bare: await create('CalendarEntry', {
        kind: 'EVENT',
        name: 'Bare entry',
        ownerId: own.id,
        startTime: '2026-12-01T09:00:00Z',
        endTime: '2026-12-01T10:00:00Z',
      }),
    };

    // The hidden records really are hidden, and the twins visible.
    for (const [type, id] of Object.entries(hidden)) {
      const field = type[0].toLowerCase() + type.slice(1);
      const res = await server.graphql(own.apiKey, `query($id: Int!) { ${field}(id: $id) { databaseId } }`, { id });
      expect([type, res.body.data]).toEqual([type, { [field]: null }]);
    }
  }, 60_000);
  afterAll(() => server.close());

  /** The Query field listing a filtered type (`deals` for DealFilter): the one returning its connection. */
  function listFieldOf(filterType: string): string {
    const type = filterType.replace(/Filter$/, '');
    const query = schema.getQueryType()!;
    const field = Object.values(query.getFields()).find(
      (f) =>
        f.args.some((a) => getNamedType(a.type).name === filterType) && isObjectType(getNamedType(f.type)) && getNamedType(f.type).name === `${type}Connection`,
    );
    if (!field) throw new Error(`no list of ${type} takes a ${filterType}`);
    return field.name;
  }

  async function listed(key: string, filterType: string, filter: unknown): Promise<Set<number>> {
    const list = listFieldOf(filterType);
    const res = await server.graphql(key, `query($filter: ${filterType}) { ${list}(filter: $filter, first: 200) { nodes { databaseId } } }`, { filter });
    expect([filterType, filter, res.body.errors]).toEqual([filterType, filter, undefined]);
    return new Set(res.body.data[list].nodes.map((n: { databaseId: number }) => n.databaseId));
  }

  const worldFor = (r: { filterType: string; field: string; related: string }) => {
    const type = r.filterType.replace(/Filter$/, '');
    const pair = twins[type];
    const id = hidden[r.related];
    if (!pair || id === undefined)
      throw new Error(`${r.filterType}.${r.field}: give the probe twins of ${type} and a hidden ${r.related} linked to the linked twin`);
    return { pair, id };
  };

  it('the schema declares the filters on related records (deal people, company and person ids; person deal ids)', () => {
    const names = relations.map((r) => `${r.filterType}.${r.field}→${r.related}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'DealFilter.people→Person',
        'DealFilter.company→Company',
        'DealFilter.personIds→Person',
        'PersonFilter.dealIds→Deal',
        'CalendarEntryFilter.recurrencesOf→CalendarEntry',
      ]),
    );
  });

  it('GraphQL: every value of every relation filter treats a record linked to a hidden record as one linked to nothing', async () => {
    for (const r of relations) {
      const { pair, id } = worldFor(r);
      let told = false;
      for (const value of valuesOf(r.input, id)) {
        const filter = { [r.field]: value };
        const seen = await listed(own.apiKey, r.filterType, filter);
        expect([r.filterType, filter, seen.has(pair.linked)]).toEqual([r.filterType, filter, seen.has(pair.bare)]);
        const all = await listed(admin, r.filterType, filter);
        if (all.has(pair.linked) !== all.has(pair.bare)) told = true;
      }
      // The admin sees the hidden record: some value must tell the twins apart, or this world tests nothing.
      expect([r.filterType, r.field, told]).toEqual([r.filterType, r.field, true]);
    }
  });

  it('v3: every condition that feeds a relation filter, on every list route, does the same', async () => {
    const byField = new Map(relations.map((r) => [`${r.filterType}.${r.field}`, r]));
    let checked = 0;
    for (const route of V3_ROUTES) {
      // Top-level JSON lists (nested routes and the iCalendar feed read the same filter fields).
      if (route.method !== 'GET' || route.kind !== 'list' || route.path.includes(':') || route.produces) continue;
      const queryField = schema.getQueryType()!.getFields()[route.result.split('.')[0]];
      const filterArg = queryField?.args.find((a) => a.name === 'filter');
      if (!filterArg) continue;
      const filterType = getNamedType(filterArg.type).name;
      const tables: Array<[string, ConditionTable | undefined]> = [
        ['conditions', route.conditions && conditionTable(schema, route.conditions)],
        ['query', route.queryFilters],
      ];
      for (const [where, table] of tables) {
        for (const [name, spec] of Object.entries(table ?? {})) {
          const r = byField.get(`${filterType}.${spec.to.split('.')[0]}`);
          if (!r) continue;
          const { pair, id } = worldFor(r);
          const value = spec.kind === 'like' ? MARKER : spec.kind === 'ids' || spec.kind === 'id' ? String(id) : null;
          if (value === null) throw new Error(`${route.path} ${name}: the probe does not know how to fill a ${spec.kind} condition`);
          const param = where === 'conditions' ? `conditions[${name}]` : name;
          const ids = async (key: string) => {
            const res = await server.request('GET', `/api/v3${route.path}.json`, {
              apiKey: key,
              query: { [param]: value, per_page: route.paging?.max ?? 100 },
            });
            expect([route.path, param, res.status]).toEqual([route.path, param, 200]);
            const entries: Array<{ id: number }> = Array.isArray(res.body) ? res.body : res.body.entries;
            return new Set(entries.map((e) => e.id));
          };
          const seen = await ids(own.apiKey);
          expect([route.path, param, seen.has(pair.linked)]).toEqual([route.path, param, seen.has(pair.bare)]);
          const all = await ids(admin);
          expect([route.path, param, 'admin tells the twins apart', all.has(pair.linked) !== all.has(pair.bare)]).toEqual([
            route.path,
            param,
            'admin tells the twins apart',
            true,
          ]);
          checked++;
        }
      }
    }
    // deals: person_* (8), person_id twice; calendar: recurrences_of.
    expect(checked).toBeGreaterThanOrEqual(11);
  });
});
