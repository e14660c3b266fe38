import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Custom field values (issue 11 §2; DECISIONS: Responses, custom_fields): every label of the
 * resource is shown as custom_label_<id>, null when unset, in its kind's shape; writes are checked
 * by kind (v3 JSON and form bodies reach the same input, GraphQL has a typed input too), errors
 * name the label and write nothing, required labels need a value on create, and a record PUT back
 * whole keeps its values.
 */

interface Labels {
  text: number;
  numeric: number;
  currency: number;
  date: number;
  dropdown: number;
  multi: number;
  boolean: number;
}

const key = (id: number) => `custom_label_${id}`;

describe('custom field values', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let l: Labels;
  /** Entries of the dropdown (Gold, Silver) and of the multi-select (Red, Green, Blue). */
  let gold: number;
  let silver: number;
  let red: number;
  let green: number;
  let blue: number;

  async function label(path: string, root: string, name: string, fieldType: string, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await server.v3(admin).post(`/admin/${path}.json`, { [root]: { name, field_type: fieldType, ...extra } });
    expect(res.status).toBe(200);
    return res.body.id;
  }

  async function entry(labelId: number, name: string): Promise<number> {
    const res = await server
      .v3(admin)
      .post('/admin/custom_field_label_dropdown_entries.json', { custom_field_label_dropdown_entry: { name, custom_field_label_id: labelId } });
    expect(res.status).toBe(200);
    return res.body.id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    admin = account.admin.apiKey;
    const deal = (name: string, type: string) => label('deal_custom_field_labels', 'deal_custom_field_label', name, type);
    l = {
      text: await deal('Nickname', 'text'),
      numeric: await deal('Seats', 'numeric'),
      currency: await deal('Budget', 'currency'),
      date: await deal('Kickoff', 'date'),
      dropdown: await deal('Tier', 'dropdown'),
      multi: await deal('Colours', 'multi_select'),
      boolean: await deal('Signed', 'boolean'),
    };
    [gold, silver] = [await entry(l.dropdown, 'Gold'), await entry(l.dropdown, 'Silver')];
    [red, green, blue] = [await entry(l.multi, 'Red'), await entry(l.multi, 'Green'), await entry(l.multi, 'Blue')];
  }, 60_000);
  afterAll(() => server.close());

  const v3 = () => server.v3(admin);
  const deals = async () => Number((await server.sql('select count(*) as n from deals where account_id = ?', [account.accountId]))[0].n);

  /** One value of each kind, as a JSON client sends it, and as every client reads it back. */
  const sent = () => ({
    [key(l.text)]: 'Big one',
    [key(l.numeric)]: 42.5,
    [key(l.currency)]: '1234.5',
    [key(l.date)]: '2026-01-31',
    [key(l.dropdown)]: silver,
    [key(l.multi)]: [blue, red],
    [key(l.boolean)]: true,
  });
  const shown = () => ({
    [key(l.text)]: 'Big one',
    // DECISIONS (Responses): numeric values are decimal strings in v3 (issue 22; GraphQL keeps the number).
    [key(l.numeric)]: '42.5',
    [key(l.currency)]: '1234.50',
    [key(l.date)]: '2026/01/31',
    [key(l.dropdown)]: silver,
    [key(l.multi)]: [blue, red],
    [key(l.boolean)]: true,
  });

  it("every label of the resource is shown, null when unset and [] for an unset multi-select; other resources' labels are not", async () => {
    const personLabel = await label('person_custom_field_labels', 'person_custom_field_label', 'Person only', 'text');
    const res = await v3().post('/deals.json', { deal: { name: 'Blank', custom_fields: { [key(personLabel)]: 'ignored' } } });
    expect(res.status).toBe(200);
    expect(res.body.custom_fields).toStrictEqual({
      [key(l.text)]: null,
      [key(l.numeric)]: null,
      [key(l.currency)]: null,
      [key(l.date)]: null,
      [key(l.dropdown)]: null,
      [key(l.multi)]: [],
      [key(l.boolean)]: null,
    });
    const person = await v3().post('/people.json', { person: { last_name: 'Labels' } });
    expect(person.body.custom_fields).toStrictEqual({ [key(personLabel)]: null });
    const list = await v3().get('/deals.json', { 'conditions[deal_id]': res.body.id });
    expect(list.body.entries[0].custom_fields).toStrictEqual(res.body.custom_fields);
  });

  it("values come back in their kind's shape (JSON body): text, numeric and currency as decimal strings, date YYYY/MM/DD, entry ids, boolean", async () => {
    const res = await v3().post('/deals.json', { deal: { name: 'Typed', custom_fields: sent() } });
    expect(res.status).toBe(200);
    expect(res.body.custom_fields).toStrictEqual(shown());
    // Stored one JSON type per kind (filters and totals read them in SQL): currency a number, dates ISO.
    const [row] = await server.sql('select custom_fields from deals where id = ?', [res.body.id]);
    expect(row.custom_fields).toStrictEqual({ ...sent(), [key(l.currency)]: 1234.5 });
    expect((await v3().get(`/deals/${res.body.id}.json`)).body.custom_fields).toStrictEqual(shown());
  });

  it('a form body (`deal[custom_fields][custom_label_N][]=id`) reaches the same input as JSON', async () => {
    const body = formEncode({
      deal: {
        name: 'Form typed',
        custom_fields: {
          [key(l.text)]: 'Big one',
          [key(l.numeric)]: '42.5',
          [key(l.currency)]: '1234.50',
          [key(l.date)]: '2026/01/31',
          [key(l.dropdown)]: String(silver),
          [key(l.multi)]: [String(blue), String(red)],
          [key(l.boolean)]: '1',
        },
      },
    });
    expect(body).toContain(encodeURIComponent(`deal[custom_fields][${key(l.multi)}][]`));
    const res = await server.request('POST', '/api/v3/deals.json', { apiKey: admin, body });
    expect(res.status).toBe(200);
    expect(res.body.custom_fields).toStrictEqual(shown());
    // A form can only clear with blanks: `[]=` clears a multi-select, `=` anything else.
    const cleared = await server.request('PUT', `/api/v3/deals/${res.body.id}.json`, {
      apiKey: admin,
      body: `deal[custom_fields][${key(l.multi)}][]=&deal[custom_fields][${key(l.text)}]=&deal[custom_fields][${key(l.boolean)}]=0`,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.custom_fields).toStrictEqual({ ...shown(), [key(l.multi)]: [], [key(l.text)]: null, [key(l.boolean)]: false });
  });

  it("booleans accept true/false/1/0 (strings too); currency is rounded to the account currency's places", async () => {
    for (const [value, expected] of [
      [true, true],
      ['true', true],
      [1, true],
      ['1', true],
      [false, false],
      ['FALSE', false],
      [0, false],
      ['0', false],
    ] as const) {
      const res = await v3().post('/deals.json', { deal: { name: `Bool ${String(value)}`, custom_fields: { [key(l.boolean)]: value } } });
      expect({ value, status: res.status, shown: res.body.custom_fields?.[key(l.boolean)] }).toEqual({ value, status: 200, shown: expected });
    }
    const money = await v3().post('/deals.json', { deal: { name: 'Money', custom_fields: { [key(l.currency)]: 10.005 } } });
    expect(money.body.custom_fields[key(l.currency)]).toBe('10.01');
    const negative = await v3().put(`/deals/${money.body.id}.json`, { deal: { custom_fields: { [key(l.currency)]: '-7' } } });
    expect(negative.body.custom_fields[key(l.currency)]).toBe('-7.00');
  });

  it('a bad value is a 422 naming the label (the message names the field), and nothing is written', async () => {
    const before = await deals();
    const cases: Array<[number, unknown, RegExp]> = [
      [l.numeric, 'many', /^must be a number \(custom field "Seats"\)$/],
      [l.numeric, [1, 2], /must be a number|ids/],
      [l.currency, 'lots', /must be a decimal number \(custom field "Budget"\)/],
      [l.currency, '12345678901234567', /too large/],
      [l.date, '2026-02-30', /must be a date like 2026-01-31 \(custom field "Kickoff"\)/],
      [l.date, 'tomorrow', /must be a date/],
      [l.dropdown, 2_000_000_000, /must be one of the field's entries \(custom field "Tier"\)/],
      [l.dropdown, red, /must be one of the field's entries/],
      [l.dropdown, [gold, silver], /takes one entry/],
      [l.multi, [red, gold], /must list entries of the field \(custom field "Colours"\)/],
      [l.boolean, 'maybe', /must be true or false \(custom field "Signed"\)/],
      [l.text, 'x'.repeat(5001), /^is too long \(maximum is 5000 characters\) \(custom field "Nickname"\)$/],
      [l.text, { nested: true }, /must be a number, text, a date or a list of ids/],
    ];
    for (const [id, value, msg] of cases) {
      const res = await v3().post('/deals.json', { deal: { name: 'Bad value', custom_fields: { [key(id)]: value } } });
      expect({ value, status: res.status, field: res.body?.[0]?.field, humanized: res.body?.[0]?.humanized_field }).toEqual({
        value,
        status: 422,
        field: key(id),
        humanized: `Custom label ${id}`,
      });
      expect(res.body[0].msg).toMatch(msg);
    }
    expect(await deals()).toBe(before);

    // Every problem of the record at once; an update refused leaves every value as it was.
    const good = (await v3().post('/deals.json', { deal: { name: 'Keeps', custom_fields: sent() } })).body;
    const bad = await v3().put(`/deals/${good.id}.json`, {
      deal: { name: 'Renamed', custom_fields: { [key(l.text)]: 'changed', [key(l.numeric)]: 'x', [key(l.date)]: '2026-13-01' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.map((e: { field: string }) => e.field).sort()).toEqual([key(l.date), key(l.numeric)].sort());
    const after = (await v3().get(`/deals/${good.id}.json`)).body;
    expect({ name: after.name, custom_fields: after.custom_fields }).toStrictEqual({ name: 'Keeps', custom_fields: shown() });
  });

  it('a record read and PUT back whole (show or list entry) keeps its values', async () => {
    const created = (await v3().post('/deals.json', { deal: { name: 'Round trip', custom_fields: sent() } })).body;
    const show = (await v3().get(`/deals/${created.id}.json`)).body;
    const back = await v3().put(`/deals/${created.id}.json`, { deal: { ...show, name: 'Round trip 2' } });
    expect(back.status).toBe(200);
    expect(back.body.custom_fields).toStrictEqual(shown());
    const listed = (await v3().get('/deals.json', { 'conditions[deal_id]': created.id })).body.entries[0];
    const again = await v3().put(`/deals/${created.id}.json`, { deal: { ...listed, name: 'Round trip 3' } });
    expect(again.status).toBe(200);
    expect(again.body.custom_fields).toStrictEqual(shown());
    const [row] = await server.sql('select custom_fields from deals where id = ?', [created.id]);
    expect(row.custom_fields).toStrictEqual({ ...sent(), [key(l.currency)]: 1234.5 });
    // A partial update touches only the labels it names; null, "" and [] clear.
    const partial = await v3().put(`/deals/${created.id}.json`, {
      deal: { custom_fields: { [key(l.numeric)]: 7, [key(l.text)]: null, [key(l.multi)]: [], [key(l.dropdown)]: '' } },
    });
    expect(partial.body.custom_fields).toStrictEqual({ ...shown(), [key(l.numeric)]: '7.0', [key(l.text)]: null, [key(l.multi)]: [], [key(l.dropdown)]: null });
  });

  it('required labels: a value on create (422 "can\'t be blank" naming the label), never cleared; records sent back whole pass', async () => {
    const other = await server.createAccount();
    const key2 = other.admin.apiKey;
    const created = await server
      .v3(key2)
      .post('/admin/person_custom_field_labels.json', { person_custom_field_label: { name: 'Employee number', field_type: 'numeric', is_required: true } });
    const req = created.body.id;
    const optional = (
      await server.v3(key2).post('/admin/person_custom_field_labels.json', { person_custom_field_label: { name: 'Notes', field_type: 'text' } })
    ).body.id;
    const count = async () => Number((await server.sql('select count(*) as n from people where account_id = ?', [other.accountId]))[0].n);

    for (const customFields of [undefined, {}, { [key(req)]: null }, { [key(req)]: '' }, { [key(optional)]: 'x' }]) {
      const res = await server
        .v3(key2)
        .post('/people.json', { person: { last_name: 'Needs number', ...(customFields ? { custom_fields: customFields } : {}) } });
      expect({ customFields, status: res.status, body: res.body }).toEqual({
        customFields,
        status: 422,
        body: [{ field: key(req), humanized_field: `Custom label ${req}`, msg: "can't be blank" }],
      });
    }
    const gql = await server.graphql(key2, 'mutation { createPerson(input: { lastName: "Typed" }) { person { id } userErrors { field code message } } }');
    expect(gql.body.data.createPerson).toEqual({
      person: null,
      userErrors: [{ field: ['input', 'customFields', key(req)], code: 'BLANK', message: "can't be blank" }],
    });
    expect(await count()).toBe(0);

    const person = await server.v3(key2).post('/people.json', { person: { last_name: 'Numbered', custom_fields: { [key(req)]: 1001 } } });
    expect(person.status).toBe(200);
    const id = person.body.id;
    expect((await server.v3(key2).put(`/people/${id}.json`, { person: { first_name: 'Untouched' } })).status).toBe(200);
    const clear = await server.v3(key2).put(`/people/${id}.json`, { person: { custom_fields: { [key(req)]: null } } });
    expect({ status: clear.status, body: clear.body }).toEqual({
      status: 422,
      body: [{ field: key(req), humanized_field: `Custom label ${req}`, msg: "can't be blank" }],
    });
    const show = (await server.v3(key2).get(`/people/${id}.json`)).body;
    expect(show.custom_fields[key(req)]).toBe('1001.0'); // numeric as a decimal string (DECISIONS: Responses), accepted back below
    expect((await server.v3(key2).put(`/people/${id}.json`, { person: { ...show, first_name: 'Whole' } })).status).toBe(200);

    // A label made required after records exist: they may still be updated (and sent back whole) without one.
    const later = (
      await server
        .v3(key2)
        .post('/admin/person_custom_field_labels.json', { person_custom_field_label: { name: 'Badge', field_type: 'text', is_required: true } })
    ).body.id;
    const again = (await server.v3(key2).get(`/people/${id}.json`)).body;
    expect(again.custom_fields[key(later)]).toBeNull();
    const whole = await server.v3(key2).put(`/people/${id}.json`, { person: { ...again, first_name: 'Later' } });
    expect(whole.status).toBe(200);
  });

  it('GraphQL: typed values a client reads without parsing JSON, and a typed write input checked the same way', async () => {
    const fields = `customFields { label kind value field { id databaseId name kind } textValue numberValue decimalValue dateValue booleanValue entryIds entries { databaseId name } }`;
    const input = {
      name: 'Typed GraphQL',
      customFieldValues: [
        { labelId: l.text, text: 'Typed' },
        { labelId: l.numeric, number: 3 },
        { labelId: l.currency, decimal: '99.9' },
        { labelId: l.date, date: '2026-02-01' },
        { labelId: l.boolean, boolean: false },
        { labelId: l.dropdown, entryIds: [gold] },
        { labelId: l.multi, entryIds: [green, red] },
      ],
    };
    const res = await server.graphql(
      admin,
      `mutation($input: DealCreateInput!) { createDeal(input: $input) { deal { databaseId ${fields} } userErrors { field code message } } }`,
      { input },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createDeal.userErrors).toEqual([]);
    const byLabel = Object.fromEntries(res.body.data.createDeal.deal.customFields.map((v: { label: string }) => [v.label, v]));
    const none = { textValue: null, numberValue: null, decimalValue: null, dateValue: null, booleanValue: null, entryIds: null, entries: null };
    expect(byLabel[key(l.text)]).toEqual({
      ...none,
      label: key(l.text),
      kind: 'TEXT',
      value: 'Typed',
      textValue: 'Typed',
      field: { id: expect.any(String), databaseId: l.text, name: 'Nickname', kind: 'TEXT' },
    });
    expect(byLabel[key(l.numeric)]).toEqual(expect.objectContaining({ ...none, kind: 'NUMERIC', value: 3, numberValue: 3 }));
    expect(byLabel[key(l.currency)]).toEqual(expect.objectContaining({ ...none, kind: 'CURRENCY', value: '99.90', decimalValue: '99.90' }));
    expect(byLabel[key(l.date)]).toEqual(expect.objectContaining({ ...none, kind: 'DATE', value: '2026-02-01', dateValue: '2026-02-01' }));
    expect(byLabel[key(l.boolean)]).toEqual(expect.objectContaining({ ...none, kind: 'BOOLEAN', value: false, booleanValue: false }));
    expect(byLabel[key(l.dropdown)]).toEqual(
      expect.objectContaining({ ...none, kind: 'DROPDOWN', value: gold, entryIds: [gold], entries: [{ databaseId: gold, name: 'Gold' }] }),
    );
    // Entries in the field's order; ids in the order stored.
    expect(byLabel[key(l.multi)]).toEqual(
      expect.objectContaining({
        ...none,
        kind: 'MULTI_SELECT',
        value: [green, red],
        entryIds: [green, red],
        entries: [
          { databaseId: red, name: 'Red' },
          { databaseId: green, name: 'Green' },
        ],
      }),
    );
    const id = res.body.data.createDeal.deal.databaseId;
    // The same record over v3.
    expect((await v3().get(`/deals/${id}.json`)).body.custom_fields).toStrictEqual({
      [key(l.text)]: 'Typed',
      [key(l.numeric)]: '3.0',
      [key(l.currency)]: '99.90',
      [key(l.date)]: '2026/02/01',
      [key(l.boolean)]: false,
      [key(l.dropdown)]: gold,
      [key(l.multi)]: [green, red],
    });

    const update = (input: Record<string, unknown>) =>
      server.graphql(
        admin,
        `mutation($id: Int!, $input: DealUpdateInput!) { updateDeal(id: $id, input: $input) { deal { ${fields} } userErrors { field code message } } }`,
        { id, input },
      );
    // No value (or null) clears; a field of another kind, an unknown label or a bad value is a user error naming it, and nothing changes.
    const cleared = await update({ customFieldValues: [{ labelId: l.text }, { labelId: l.multi, entryIds: null }] });
    const after = Object.fromEntries(cleared.body.data.updateDeal.deal.customFields.map((v: { label: string }) => [v.label, v]));
    expect([after[key(l.text)].value, after[key(l.multi)].value, after[key(l.multi)].entryIds]).toEqual([null, [], []]);
    const refused = await update({
      customFieldValues: [
        { labelId: l.numeric, text: 'three' },
        { labelId: 2_000_000_000, text: 'x' },
        { labelId: l.dropdown, entryIds: [red] },
        { labelId: l.date, date: '01/02/2026' },
      ],
      customFields: { [key(l.boolean)]: 'perhaps' },
    });
    expect(refused.body.data.updateDeal.deal).toBeNull();
    expect(refused.body.data.updateDeal.userErrors).toEqual([
      { field: ['input', 'customFields', key(l.boolean)], code: 'INVALID', message: 'must be true or false (custom field "Signed")' },
      { field: ['input', 'customFieldValues', '0', 'text'], code: 'INVALID', message: 'is not for a numeric field: give number (custom field "Seats")' },
      { field: ['input', 'customFieldValues', '1', 'labelId'], code: 'NOT_FOUND', message: 'does not exist' },
      { field: ['input', 'customFieldValues', '2'], code: 'INVALID', message: 'must be one of the field\'s entries (custom field "Tier")' },
      { field: ['input', 'customFieldValues', '3'], code: 'INVALID', message: 'must be a date like 2026-01-31 (custom field "Kickoff")' },
    ]);
    const [row] = await server.sql('select custom_fields from deals where id = ?', [id]);
    expect(row.custom_fields).toStrictEqual({
      [key(l.numeric)]: 3,
      [key(l.currency)]: 99.9,
      [key(l.date)]: '2026-02-01',
      [key(l.boolean)]: false,
      [key(l.dropdown)]: gold,
    });
  });

  it('people and companies check their values the same way', async () => {
    const personLabel = await label('person_custom_field_labels', 'person_custom_field_label', 'Shoe size', 'numeric');
    const companyLabel = await label('company_custom_field_labels', 'company_custom_field_label', 'Founded on', 'date');
    const person = await v3().post('/people.json', { person: { last_name: 'Sized', custom_fields: { [key(personLabel)]: 'large' } } });
    expect({ status: person.status, field: person.body[0].field, msg: person.body[0].msg }).toEqual({
      status: 422,
      field: key(personLabel),
      msg: 'must be a number (custom field "Shoe size")',
    });
    const company = await v3().post('/companies.json', { company: { name: 'Dated', custom_fields: { [key(companyLabel)]: '1999/12/31' } } });
    expect(company.body.custom_fields).toEqual(expect.objectContaining({ [key(companyLabel)]: '1999/12/31' }));
    const gql = await server.graphql(
      admin,
      `mutation { createCompany(input: { name: "Typed Co", customFieldValues: [{ labelId: ${companyLabel}, date: "2000-02-29" }] }) { company { customFields { label dateValue } } userErrors { message } } }`,
    );
    expect(gql.body.data.createCompany.company.customFields).toEqual(expect.arrayContaining([{ label: key(companyLabel), dateValue: '2000-02-29' }]));
  });
});
