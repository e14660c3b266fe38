import { Visibility } from '../../src/modules/users/user.entity';
import { MATCH_LIST_MAX } from '../../src/modules/custom-field-search/custom-field-search';
import { seedCustomField, type SeededField } from '../support/custom-fields';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Custom field conditions (`range`, `matches`) and totals over GraphQL (issue 11 §3), on real
 * PostgreSQL: every kind, bad values, tenancy and visibility, the v3 `totals=true` keys, and the
 * searchable values the triggers keep in step with the records (custom_field_search_values).
 */
describe('custom field conditions and totals', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let own: { id: number; apiKey: string };
  const f: Record<'text' | 'seats' | 'budget' | 'signed' | 'tier' | 'tags' | 'vip', SeededField> = {} as never;
  let personScore: SeededField;
  const deals: Record<string, number> = {};

  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const ids = async (filter: unknown, key = admin): Promise<number[]> =>
    (
      (await gql(key, 'query($f: DealFilter) { deals(filter: $f, perPage: 200) { nodes { databaseId } } }', { f: filter })).deals.nodes as Array<{
        databaseId: number;
      }>
    )
      .map((n) => n.databaseId)
      .sort((a, b) => a - b);
  const on = (label: SeededField, condition: Record<string, unknown>) => ({ customFields: [{ label: label.label, ...condition }] });
  const named = (...names: string[]) => names.map((n) => deals[n]).sort((a, b) => a - b);
  const createDeal = async (key: string, name: string, customFields: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const made = (
      await gql(key, 'mutation($i: DealCreateInput!) { createDeal(input: $i) { deal { databaseId } userErrors { field message } } }', {
        i: { name, customFields, ...extra },
      })
    ).createDeal;
    expect(made.userErrors).toEqual([]);
    deals[name] = made.deal.databaseId;
    return made.deal.databaseId as number;
  };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ currency: 'USD' });
    admin = account.admin.apiKey;
    own = await account.addUser({ visibility: Visibility.OWN });
    const id = account.accountId;
    f.text = await seedCustomField(server, id, 'deal', 'text', 'Region');
    f.seats = await seedCustomField(server, id, 'deal', 'numeric', 'Seats');
    f.budget = await seedCustomField(server, id, 'deal', 'currency', 'Budget');
    f.signed = await seedCustomField(server, id, 'deal', 'date', 'Signed on');
    f.tier = await seedCustomField(server, id, 'deal', 'dropdown', 'Tier', ['Gold', 'Silver', 'Bronze']);
    f.tags = await seedCustomField(server, id, 'deal', 'multi_select', 'Tags', ['Hot', 'Cold', 'Partner']);
    f.vip = await seedCustomField(server, id, 'deal', 'boolean', 'VIP');
    personScore = await seedCustomField(server, id, 'person', 'numeric', 'Score');
    const [gold, silver, bronze] = f.tier.entries;
    const [hot, cold, partner] = f.tags.entries;
    await createDeal(admin, 'north', {
      [f.text.label]: 'North-East',
      [f.seats.label]: 10,
      [f.budget.label]: '1000.50',
      [f.signed.label]: '2026-01-15',
      [f.tier.label]: gold,
      [f.tags.label]: [hot, partner],
      [f.vip.label]: true,
    });
    await createDeal(admin, 'south', {
      [f.text.label]: 'south',
      [f.seats.label]: 25.5,
      [f.budget.label]: 99.99,
      [f.signed.label]: '2026-02-01',
      [f.tier.label]: silver,
      [f.tags.label]: [cold],
      [f.vip.label]: false,
    });
    await createDeal(admin, 'west', {
      [f.text.label]: 'West coast',
      [f.seats.label]: 100,
      [f.budget.label]: '0.01',
      [f.signed.label]: '2025-12-31',
      [f.tier.label]: bronze,
      [f.tags.label]: [],
    });
    await createDeal(admin, 'blank', {});
    // The restricted user's own deal, and one of the admin's shared with them.
    await createDeal(own.apiKey, 'mine', { [f.seats.label]: 7, [f.budget.label]: 10, [f.tier.label]: gold });
    await createDeal(admin, 'shared', { [f.seats.label]: 3, [f.budget.label]: '2.25', [f.tier.label]: gold }, { sharedUserIds: [own.id] });
  }, 60_000);
  afterAll(() => server.close());

  describe('range', () => {
    it('numeric fields: inclusive bounds, either alone, decimal strings', async () => {
      expect(await ids(on(f.seats, { range: { from: '10', to: '25.5' } }))).toEqual(named('north', 'south'));
      expect(await ids(on(f.seats, { range: { from: '25.50' } }))).toEqual(named('south', 'west'));
      expect(await ids(on(f.seats, { range: { to: '7' } }))).toEqual(named('mine', 'shared'));
      expect(await ids(on(f.seats, { range: { from: '101' } }))).toEqual([]);
      // A range with no bound is no condition.
      expect(await ids(on(f.seats, { range: {} }))).toEqual(named('north', 'south', 'west', 'blank', 'mine', 'shared'));
    });

    it('currency fields compare amounts, not text', async () => {
      expect(await ids(on(f.budget, { range: { from: '2.25', to: '1000.5' } }))).toEqual(named('north', 'south', 'mine', 'shared'));
      expect(await ids(on(f.budget, { range: { to: '.01' } }))).toEqual(named('west'));
    });

    it('date fields: calendar dates, inclusive', async () => {
      expect(await ids(on(f.signed, { range: { from: '2026-01-01', to: '2026-02-01' } }))).toEqual(named('north', 'south'));
      expect(await ids(on(f.signed, { range: { to: '2025-12-31' } }))).toEqual(named('west'));
    });

    it('combines with the other conditions, and/or/not', async () => {
      expect(await ids({ name: { eq: 'south' }, ...on(f.seats, { range: { from: '1' } }) })).toEqual(named('south'));
      expect(await ids({ or: [on(f.seats, { range: { to: '3' } }), on(f.signed, { range: { from: '2026-02-01' } })] })).toEqual(named('south', 'shared'));
      expect(await ids({ not: on(f.seats, { range: { from: '10' } }) })).toEqual(named('blank', 'mine', 'shared'));
    });
  });

  describe('matches', () => {
    it('text fields: any of the substrings, ignoring case', async () => {
      expect(await ids(on(f.text, { matches: ['NORTH', 'coast'] }))).toEqual(named('north', 'west'));
      expect(await ids(on(f.text, { matches: ['%'] }))).toEqual([]);
    });

    it('dropdown fields: any of the entry ids', async () => {
      const [gold, silver] = f.tier.entries;
      expect(await ids(on(f.tier, { matches: [String(gold)] }))).toEqual(named('north', 'mine', 'shared'));
      expect(await ids(on(f.tier, { matches: [String(silver), '999999'] }))).toEqual(named('south'));
    });

    it('multi-select fields: any chosen entry among the ids', async () => {
      const [hot, cold, partner] = f.tags.entries;
      expect(await ids(on(f.tags, { matches: [String(partner)] }))).toEqual(named('north'));
      expect(await ids(on(f.tags, { matches: [String(hot), String(cold)] }))).toEqual(named('north', 'south'));
    });

    it('boolean fields: "true" or "false" (no value matches neither)', async () => {
      expect(await ids(on(f.vip, { matches: ['true'] }))).toEqual(named('north'));
      expect(await ids(on(f.vip, { matches: ['False'] }))).toEqual(named('south'));
    });

    it('numeric and date fields: equal values; an empty list matches none', async () => {
      expect(await ids(on(f.seats, { matches: ['25.50', '3'] }))).toEqual(named('south', 'shared'));
      expect(await ids(on(f.signed, { matches: ['2026-01-15'] }))).toEqual(named('north'));
      expect(await ids(on(f.seats, { matches: [] }))).toEqual([]);
    });

    it('a range and a list on one field must both hold', async () => {
      expect(await ids(on(f.seats, { range: { from: '5' }, matches: ['3', '7', '10'] }))).toEqual(named('north', 'mine'));
    });
  });

  describe('bad input is BAD_USER_INPUT naming the path, never a 500', () => {
    const refused = async (filter: unknown) => {
      const res = await server.graphql(admin, 'query($f: DealFilter) { deals(filter: $f) { nodes { databaseId } } }', { f: filter });
      expect(res.status).toBeLessThan(500);
      expect(res.body.data?.deals ?? null).toBeNull();
      return res.body.errors.map((e: { message: string; extensions: Record<string, unknown> }) => ({ ...e.extensions, message: e.message }));
    };

    it("a bound that does not parse for the field's kind", async () => {
      expect(await refused(on(f.seats, { range: { from: 'ten' } }))).toEqual([
        { code: 'BAD_USER_INPUT', argument: 'filter.customFields[0].range.from', message: expect.stringContaining('number') },
      ]);
      expect(await refused(on(f.budget, { range: { to: '1e5' } }))).toEqual([expect.objectContaining({ argument: 'filter.customFields[0].range.to' })]);
      expect(await refused(on(f.signed, { range: { from: '2026-02-30' } }))).toEqual([
        expect.objectContaining({ argument: 'filter.customFields[0].range.from', message: expect.stringContaining('date') }),
      ]);
      expect(await refused(on(f.signed, { range: { from: '100' } }))).toEqual([expect.objectContaining({ argument: 'filter.customFields[0].range.from' })]);
    });

    it('a value of the wrong kind in matches, a range on a kind without order', async () => {
      expect(await refused(on(f.tier, { matches: ['1', 'gold'] }))).toEqual([
        expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'filter.customFields[0].matches[1]' }),
      ]);
      expect(await refused(on(f.vip, { matches: ['yes'] }))).toEqual([expect.objectContaining({ argument: 'filter.customFields[0].matches[0]' })]);
      expect(await refused(on(f.seats, { matches: ['many'] }))).toEqual([expect.objectContaining({ argument: 'filter.customFields[0].matches[0]' })]);
      expect(await refused(on(f.text, { range: { from: 'a' } }))).toEqual([
        expect.objectContaining({ argument: 'filter.customFields[0].range', message: expect.stringContaining('text field') }),
      ]);
    });

    it('an unknown field, or one of another resource, names the label', async () => {
      expect(await refused({ customFields: [{ label: 'custom_label_999999', range: { from: '1' } }] })).toEqual([
        expect.objectContaining({
          code: 'BAD_USER_INPUT',
          argument: 'filter.customFields[0].label',
          message: expect.stringContaining('not a custom field of deals'),
        }),
      ]);
      expect(await refused({ and: [{}, on(personScore, { matches: ['1'] })] })).toEqual([
        expect.objectContaining({ argument: 'filter.and[1].customFields[0].label' }),
      ]);
      // Another account's field is unknown here.
      const other = await server.createAccount();
      const theirs = await seedCustomField(server, other.accountId, 'deal', 'numeric', 'Theirs');
      expect(await refused(on(theirs, { range: { from: '1' } }))).toEqual([expect.objectContaining({ argument: 'filter.customFields[0].label' })]);
    });

    it('too many values', async () => {
      expect(await refused(on(f.tier, { matches: Array.from({ length: 101 }, (_, i) => String(i + 1)) }))).toEqual([
        expect.objectContaining({ argument: 'filter.customFields[0].matches' }),
      ]);
    });
  });

  it("a person field in a deal filter's people condition; a company's deals filtered and totalled", async () => {
    const person = (
      await gql(admin, 'mutation($i: PersonCreateInput!) { createPerson(input: $i) { person { databaseId } userErrors { message } } }', {
        i: { firstName: 'Sco', lastName: 'Rer', customFields: { [personScore.label]: 42 } },
      })
    ).createPerson.person.databaseId;
    await gql(admin, 'mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { userErrors { message } } }', {
      id: deals.west,
      i: { personIds: [person] },
    });
    expect(await ids({ people: { some: on(personScore, { range: { from: '40', to: '50' } }) } })).toEqual(named('west'));
    expect(await ids({ people: { some: on(personScore, { range: { from: '43' } }) } })).toEqual([]);
    // A company's deals (a nested connection with its own filter and totals).
    const company = (
      await gql(admin, 'mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { deal { companyId } } }', {
        id: deals.north,
        i: { companyName: 'Range Co' },
      })
    ).updateDeal.deal.companyId;
    await gql(admin, 'mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { userErrors { message } } }', {
      id: deals.south,
      i: { companyId: company },
    });
    const nested = await gql(
      admin,
      'query($id: Int!, $f: DealFilter) { company(id: $id) { deals(filter: $f) { nodes { databaseId } totals { customFields { label value } } } } }',
      {
        id: company,
        f: on(f.seats, { range: { to: '20' } }),
      },
    );
    expect(nested.company.deals.nodes).toEqual([{ databaseId: deals.north }]);
    expect(nested.company.deals.totals.customFields).toEqual([
      { label: f.seats.label, value: '10' },
      { label: f.budget.label, value: '1000.50' },
    ]);
    // Two appearances of one page (the same arguments), one asking for the custom field sums.
    const twice = await gql(
      admin,
      'query($id: Int!) { company(id: $id) { plain: deals { totals { count } } full: deals { totals { count customFields { value } } } } }',
      { id: company },
    );
    expect(twice.company).toEqual({ plain: { totals: { count: 2 } }, full: { totals: { count: 2, customFields: [{ value: '35.5' }, { value: '1100.49' }] } } });
  });

  it('people and companies lists take the same conditions', async () => {
    const size = await seedCustomField(server, account.accountId, 'company', 'dropdown', 'Size', ['Small', 'Large']);
    const make = async (name: string, entry: number) =>
      (
        await gql(admin, 'mutation($i: CompanyCreateInput!) { createCompany(input: $i) { company { databaseId } userErrors { message } } }', {
          i: { name, customFields: { [size.label]: entry } },
        })
      ).createCompany.company.databaseId;
    const small = await make('Small Co', size.entries[0]);
    await make('Large Co', size.entries[1]);
    const companies = await gql(admin, 'query($f: CompanyFilter) { companies(filter: $f) { nodes { databaseId } } }', {
      f: on(size, { matches: [String(size.entries[0])] }),
    });
    expect(companies.companies.nodes).toEqual([{ databaseId: small }]);
    const person = (
      await gql(admin, 'mutation($i: PersonCreateInput!) { createPerson(input: $i) { person { databaseId } } }', {
        i: { firstName: 'Top', lastName: 'Scorer', customFields: { [personScore.label]: 99 } },
      })
    ).createPerson.person.databaseId;
    const people = await gql(admin, 'query($f: PersonFilter) { people(filter: $f) { nodes { databaseId } } }', {
      f: on(personScore, { range: { from: '90', to: '99' } }),
    });
    expect(people.people.nodes).toEqual([{ databaseId: person }]);
    // A deal field is not one of people.
    const wrong = await server.graphql(admin, 'query($f: PersonFilter) { people(filter: $f) { nodes { databaseId } } }', {
      f: on(f.seats, { range: { from: '1' } }),
    });
    expect(wrong.body.errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([{ code: 'BAD_USER_INPUT', argument: 'filter.customFields[0].label' }]);
  });

  it('the searchable values follow every write: update, clear, delete', async () => {
    const id = await createDeal(admin, 'moving', { [f.seats.label]: 500, [f.tags.label]: [f.tags.entries[2]] });
    expect(await ids(on(f.seats, { range: { from: '500' } }))).toEqual([id]);
    await gql(admin, 'mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { userErrors { message } } }', {
      id,
      i: { customFields: { [f.seats.label]: 501 } },
    });
    expect(await ids(on(f.seats, { range: { from: '500', to: '500' } }))).toEqual([]);
    expect(await ids(on(f.seats, { range: { from: '501', to: '501' } }))).toEqual([id]);
    await gql(admin, 'mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { userErrors { message } } }', {
      id,
      i: { customFields: { [f.seats.label]: null } },
    });
    expect(await ids(on(f.seats, { range: { from: '500' } }))).toEqual([]);
    // A write that does not touch custom fields leaves their values; an SQL write (not through the service) is followed too.
    await gql(admin, 'mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { userErrors { message } } }', { id, i: { name: 'moved' } });
    expect(await ids(on(f.tags, { matches: [String(f.tags.entries[2])] }))).toEqual([deals.north, id].sort((a, b) => a - b));
    await server.sql(`update deals set custom_fields = custom_fields || jsonb_build_object(?::text, 777) where id = ?`, [f.seats.label, id]);
    expect(await ids(on(f.seats, { range: { from: '777' } }))).toEqual([id]);
    // Record ids repeat across people, companies and deals: the deal's rows are those of deal fields.
    expect(
      await server.sql(
        'select s.field_id, s.value::text as value from custom_field_search_values s join custom_fields f on f.id = s.field_id where s.record_id = ? and f.resource = ? order by s.field_id',
        [id, 'deal'],
      ),
    ).toEqual([
      { field_id: f.seats.id, value: '777' },
      { field_id: f.tags.id, value: String(f.tags.entries[2]) },
    ]);
    await gql(admin, 'mutation($id: Int!) { deleteDeal(id: $id) { userErrors { message } } }', { id });
    expect(
      await server.sql('select 1 from custom_field_search_values s join custom_fields f on f.id = s.field_id where s.record_id = ? and f.resource = ?', [
        id,
        'deal',
      ]),
    ).toEqual([]);
  });

  describe('totals of numeric and currency fields', () => {
    const TOTALS =
      'query($f: DealFilter) { deals(filter: $f, perPage: 1) { nodes { databaseId } totals { value count customFields { fieldId label name value } } } }';

    it('sums over every matching deal, not the page, as decimal strings', async () => {
      const { deals: page } = await gql(admin, TOTALS, { f: { name: { in: ['north', 'south', 'west', 'blank', 'mine', 'shared'] } } });
      expect(page.nodes).toHaveLength(1);
      expect(page.totals.count).toBe(6);
      expect(page.totals.customFields).toEqual([
        { fieldId: f.seats.id, label: f.seats.label, name: 'Seats', value: '145.5' },
        { fieldId: f.budget.id, label: f.budget.label, name: 'Budget', value: '1112.75' },
      ]);
      const filtered = await gql(admin, TOTALS, { f: on(f.tier, { matches: [String(f.tier.entries[0])] }) });
      expect(filtered.deals.totals.customFields.map((t: { value: string }) => t.value)).toEqual(['20', '1012.75']);
      const none = await gql(admin, TOTALS, { f: on(f.seats, { range: { from: '1000000' } }) });
      expect(none.deals.totals).toEqual({
        value: '0.00',
        count: 0,
        customFields: [expect.objectContaining({ value: '0' }), expect.objectContaining({ value: '0.00' })],
      });
    });

    it("a restricted user's totals count only the deals they may see", async () => {
      const { deals: page } = await gql(own.apiKey, TOTALS, { f: on(f.tier, { matches: [String(f.tier.entries[0])] }) });
      expect(page.totals.count).toBe(2);
      expect(page.totals.customFields.map((t: { value: string }) => t.value)).toEqual(['10', '12.25']);
      expect(await ids(on(f.seats, { range: { from: '0' } }), own.apiKey)).toEqual(named('mine', 'shared'));
    });

    it('v3 `totals=true` adds the custom_label_N keys beside value, bonus and commission', async () => {
      const res = await server.v3(admin).get('/deals.json', { totals: 'true', per_page: 1, 'conditions[deal_name]': 'south' });
      expect(res.status).toBe(200);
      expect(res.body.totals).toEqual({ value: '0.00', bonus: '0.00', commission: '0.00', [f.seats.label]: '25.5', [f.budget.label]: '99.99' });
      const all = await server.v3(own.apiKey).get('/deals.json', { totals: 'true' });
      // A whole numeric total shows as its values do ("10.0", DECISIONS: Responses; GraphQL keeps "10").
      expect(all.body.totals).toEqual(expect.objectContaining({ [f.seats.label]: '10.0', [f.budget.label]: '12.25' }));
      expect((await server.v3(admin).get('/deals.json', { per_page: 1 })).body.totals).toBeUndefined();
    });
  });

  it('v3 conditions[custom_label_N] reach the same conditions', async () => {
    const res = await server.v3(admin).get('/deals.json', { [`conditions[${f.seats.label}][from]`]: '10', [`conditions[${f.seats.label}][to]`]: '25.5' });
    expect(res.status).toBe(200);
    expect(res.body.entries.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b)).toEqual(named('north', 'south'));
    const bad = await server.v3(admin).get('/deals.json', { [`conditions[${f.signed.label}][from]`]: '12.5' });
    // v3: a condition's bad value is a 422 naming the condition (DECISIONS: Paths and requests).
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 422,
      body: [expect.objectContaining({ field: `conditions[${f.signed.label}]`, msg: expect.stringContaining('date') })],
    });
  });

  it(`beyond ${MATCH_LIST_MAX} matching values the other SQL shape answers the same`, async () => {
    const big = await server.createAccount();
    const n = await seedCustomField(server, big.accountId, 'deal', 'numeric', 'N');
    await server.sql(
      `insert into deals (account_id, owner_id, name, custom_fields, created_at, updated_at)
       select ?, ?, 'bulk ' || g, jsonb_build_object(?::text, g), now() - make_interval(secs => g), now() from generate_series(1, ?) g`,
      [big.accountId, big.admin.id, n.label, MATCH_LIST_MAX + 100],
    );
    const count = async (condition: Record<string, unknown>) =>
      (await gql(big.admin.apiKey, 'query($f: DealFilter) { deals(filter: $f, perPage: 3) { nodes { name } totalCount } }', { f: on(n, condition) })).deals;
    const wide = await count({ range: { from: '50' } });
    expect(wide).toEqual({ totalCount: MATCH_LIST_MAX + 51, nodes: [{ name: 'bulk 50' }, { name: 'bulk 51' }, { name: 'bulk 52' }] });
    const narrow = await count({ range: { from: '50', to: '51' } });
    expect(narrow).toEqual({ totalCount: 2, nodes: [{ name: 'bulk 50' }, { name: 'bulk 51' }] });
  }, 60_000);
});
