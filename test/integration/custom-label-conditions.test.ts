import { seedCustomField, type SeededField } from '../support/custom-fields';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * v3 `conditions[custom_label_N]` on the deals, people and companies lists (issue 11 §3; DECISIONS:
 * Conditions the spec leaves unshown), end to end: ranges and values reach the core's custom field
 * conditions, the facade's own checks and the core's (an unknown field, a value of the wrong kind)
 * are a 422 naming the condition, and saved searches store and run the same conditions.
 */
describe('conditions[custom_label_N] on the v3 lists', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  const field: Record<'seats' | 'signed' | 'tier' | 'region' | 'score' | 'size', SeededField> = {} as never;
  const deal: Record<string, number> = {};
  const person: Record<string, number> = {};
  const company: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'Europe/Paris' });
    admin = account.admin.apiKey;
    const id = account.accountId;
    field.seats = await seedCustomField(server, id, 'deal', 'numeric', 'Seats');
    field.signed = await seedCustomField(server, id, 'deal', 'date', 'Signed on');
    field.tier = await seedCustomField(server, id, 'deal', 'dropdown', 'Tier', ['Gold', 'Silver', 'Bronze']);
    field.region = await seedCustomField(server, id, 'deal', 'text', 'Region');
    field.score = await seedCustomField(server, id, 'person', 'numeric', 'Score');
    field.size = await seedCustomField(server, id, 'company', 'dropdown', 'Size', ['Small', 'Large']);
    const [gold, silver, bronze] = field.tier.entries;
    const v3 = server.v3(admin);
    const made = async (path: string, root: string, body: Record<string, unknown>) => {
      const res = await v3.post(path, { [root]: body });
      expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
      return res.body.id as number;
    };
    deal.north = await made('/deals.json', 'deal', {
      name: 'north',
      custom_fields: { [field.seats.label]: 10, [field.signed.label]: '2026/01/15', [field.tier.label]: gold, [field.region.label]: 'North-East' },
    });
    deal.south = await made('/deals.json', 'deal', {
      name: 'south',
      custom_fields: { [field.seats.label]: 25.5, [field.signed.label]: '2026/02/01', [field.tier.label]: silver, [field.region.label]: 'south' },
    });
    deal.west = await made('/deals.json', 'deal', {
      name: 'west',
      custom_fields: { [field.seats.label]: 100, [field.signed.label]: '2025/12/31', [field.tier.label]: bronze, [field.region.label]: 'West coast' },
    });
    deal.blank = await made('/deals.json', 'deal', { name: 'blank' });
    person.high = await made('/people.json', 'person', { last_name: 'High', custom_fields: { [field.score.label]: 90 } });
    person.low = await made('/people.json', 'person', { last_name: 'Low', custom_fields: { [field.score.label]: 5 } });
    company.small = await made('/companies.json', 'company', { name: 'Small Co', custom_fields: { [field.size.label]: field.size.entries[0] } });
    company.large = await made('/companies.json', 'company', { name: 'Large Co', custom_fields: { [field.size.label]: field.size.entries[1] } });
  }, 60_000);
  afterAll(() => server.close());

  const ids = (res: { body: any }) => (res.body.entries as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
  const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);
  const list = (path: string, query: Record<string, string | number>) => server.v3(admin).get(path, query);

  it("[from]/[to] ranges on numeric and date fields (the service's own date form too), either bound alone", async () => {
    const seats = field.seats.label;
    expect(ids(await list('/deals.json', { [`conditions[${seats}][from]`]: 10, [`conditions[${seats}][to]`]: '25.5' }))).toEqual(
      sorted(deal.north, deal.south),
    );
    expect(ids(await list('/deals.json', { [`conditions[${seats}][from]`]: 26 }))).toEqual([deal.west]);
    const signed = field.signed.label;
    expect(ids(await list('/deals.json', { [`conditions[${signed}][from]`]: '2026/01/01', [`conditions[${signed}][to]`]: '2026-01-31' }))).toEqual([
      deal.north,
    ]);
    expect(ids(await list('/deals.json', { [`conditions[${signed}][to_date]`]: '2025-12-31' }))).toEqual([deal.west]);
    expect(ids(await list('/people.json', { [`conditions[${field.score.label}][from]`]: 50 }))).toEqual([person.high]);
  });

  it('one value, a comma-separated list or an array: entry ids, substrings of a text', async () => {
    const [gold, silver] = field.tier.entries;
    const tier = field.tier.label;
    expect(ids(await list('/deals.json', { [`conditions[${tier}]`]: gold }))).toEqual([deal.north]);
    expect(ids(await list('/deals.json', { [`conditions[${tier}]`]: `${gold},${silver}` }))).toEqual(sorted(deal.north, deal.south));
    const res = await server.request('GET', '/api/v3/deals.json', { apiKey: admin, query: { [`conditions[${tier}][]`]: silver } });
    expect(ids(res)).toEqual([deal.south]);
    expect(ids(await list('/deals.json', { [`conditions[${field.region.label}]`]: 'EAST,coast' }))).toEqual(sorted(deal.north, deal.west));
    expect(ids(await list('/companies.json', { [`conditions[${field.size.label}]`]: field.size.entries[1] }))).toEqual([company.large]);
    // Beside other conditions, each must hold.
    expect(ids(await list('/deals.json', { [`conditions[${tier}]`]: `${gold},${silver}`, 'conditions[deal_name]': 'sou' }))).toEqual([deal.south]);
  });

  it("the facade's checks and the core's both answer a 422 naming conditions[custom_label_N]", async () => {
    const expect422 = async (path: string, query: Record<string, string | number>, field: string, msg: RegExp) => {
      const res = await list(path, query);
      expect({ status: res.status, field: res.body?.[0]?.field }).toEqual({ status: 422, field });
      expect(res.body[0].msg).toMatch(msg);
    };
    // The facade: the key's shape, the values' count and length, a bound that is neither a number nor a date.
    await expect422('/deals.json', { 'conditions[custom_label_x]': 1 }, 'conditions[custom_label_x]', /custom_label_<id>/);
    await expect422('/deals.json', { [`conditions[${field.seats.label}][from]`]: 'ten' }, `conditions[${field.seats.label}][from]`, /number or a date/);
    await expect422('/deals.json', { [`conditions[${field.region.label}]`]: 'x'.repeat(201) }, `conditions[${field.region.label}]`, /too long/);
    // The core: no such field for the resource, a value the field's kind does not take, a range on a dropdown.
    await expect422('/deals.json', { 'conditions[custom_label_999999]': 1 }, 'conditions[custom_label_999999]', /./);
    await expect422('/people.json', { [`conditions[${field.seats.label}][from]`]: 1 }, `conditions[${field.seats.label}]`, /./);
    await expect422('/deals.json', { [`conditions[${field.signed.label}][from]`]: '12.5' }, `conditions[${field.signed.label}]`, /date/);
    await expect422('/deals.json', { [`conditions[${field.tier.label}]`]: 'gold' }, `conditions[${field.tier.label}]`, /entry id/);
    await expect422('/deals.json', { [`conditions[${field.tier.label}][from]`]: 1 }, `conditions[${field.tier.label}]`, /numeric, currency and date/);
  });

  it('saved searches store custom field conditions, refuse an unknown field when saved, and run them as the list would', async () => {
    const save = async (input: Record<string, unknown>) =>
      (
        await server.graphql(
          admin,
          'mutation($i: SavedSearchCreateInput!) { createSearch(input: $i) { search { databaseId query } userErrors { field code message } } }',
          { i: { name: 'Custom', searchType: 'DEALS', ...input } },
        )
      ).body.data.createSearch;
    const [gold, silver] = field.tier.entries;
    const made = await save({ query: { [field.seats.label]: [{ from: '10', to: '30' }], [field.tier.label]: [gold, silver] }, order: '-deals.name' });
    expect(made.userErrors).toEqual([]);
    expect(made.search.query).toEqual({ [field.seats.label]: [{ from: '10', to: '30' }], [field.tier.label]: [gold, silver] });
    const res = await list('/deals.json', { search_id: made.search.databaseId });
    expect(res.body.entries.map((e: { id: number }) => e.id)).toEqual([deal.south, deal.north]);
    const data = (await server.graphql(admin, 'query($s: Int) { deals(searchId: $s) { nodes { databaseId } } }', { s: made.search.databaseId })).body.data;
    expect(data.deals.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([deal.south, deal.north]);

    const before = (await server.sql('select count(*)::int as n from saved_searches where account_id = ?', [account.accountId]))[0].n;
    const unknown = await save({ query: { custom_label_999999: ['1'] } });
    expect(unknown.search).toBeNull();
    expect(unknown.userErrors).toEqual([{ field: ['input', 'query', 'custom_label_999999'], code: 'INVALID', message: expect.any(String) }]);
    const wrongKind = await save({ query: { [field.tier.label]: ['gold'] } });
    expect(wrongKind.userErrors).toEqual([{ field: ['input', 'query', field.tier.label], code: 'INVALID', message: expect.stringContaining('entry id') }]);
    const otherResource = await save({ searchType: 'PEOPLE', query: { [field.seats.label]: [{ from: 1 }] } });
    expect(otherResource.userErrors).toEqual([{ field: ['input', 'query', field.seats.label], code: 'INVALID', message: expect.any(String) }]);
    expect((await server.sql('select count(*)::int as n from saved_searches where account_id = ?', [account.accountId]))[0].n).toBe(before);

    // A field deleted since the search was saved: the search no longer runs, and says which condition.
    const doomed = await seedCustomField(server, account.accountId, 'deal', 'numeric', 'Doomed');
    const stale = await save({ query: { [doomed.label]: [{ from: 1 }] } });
    expect(stale.userErrors).toEqual([]);
    await server.sql('delete from custom_fields where id = ?', [doomed.id]);
    const gone = await list('/deals.json', { search_id: stale.search.databaseId });
    expect(gone.status).toBe(422);
    expect(gone.body).toEqual([{ field: 'search_id', humanized_field: 'Search', msg: `${doomed.label} is not a custom field of deals` }]);
  });
});
