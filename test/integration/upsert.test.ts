import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 26 §4 batch upsert: each input matched to a visible record by its key and created,
 * updated or left unchanged, or refused alone (its savepoint rolled back); the batch bounded; a
 * hidden record never matched; ambiguous matches refused; change records only for real changes.
 */

const UPSERT_PEOPLE = `mutation($inputs: [PersonCreateInput!]!, $matchBy: PersonMatchKey, $externalIdField: Int) {
  upsertPeople(inputs: $inputs, matchBy: $matchBy, externalIdField: $externalIdField) {
    results { status person { databaseId firstName lastName email ownerId } userErrors { field code message } }
  }
}`;

interface Result {
  status: string;
  person: { databaseId: number; firstName: string | null; lastName: string; email: string | null; ownerId: number | null } | null;
  userErrors: Array<{ field: string[] | null; code: string; message: string }>;
}

describe('upsertPeople, upsertCompanies, upsertDeals', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let own: { id: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = account.admin.apiKey;
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
  }, 60_000);
  afterAll(() => server.close());

  const upsertPeople = async (key: string, inputs: unknown[], extra: Record<string, unknown> = {}) => {
    const res = await server.graphql(key, UPSERT_PEOPLE, { inputs, ...extra });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.upsertPeople.results as Result[];
  };
  const peopleWithEmail = (email: string) =>
    server.sql<{ id: number; first_name: string | null; last_name: string }>(
      'select id, first_name, last_name from people where account_id = ? and lower(email) = lower(?) order by id',
      [account.accountId, email],
    );
  const changesOf = (model: string, id: number) =>
    server.sql<{ action: string; changes: Record<string, unknown> | null }>(
      'select action, changes from record_changes where account_id = ? and model = ? and record_id = ? order by id',
      [account.accountId, model, id],
    );

  it('creates the new, updates the matched and leaves the same unchanged, in input order, with a change only for real changes', async () => {
    const [first] = await upsertPeople(admin, [{ lastName: 'Lovelace', firstName: 'Ada', email: 'ada@example.test' }]);
    expect(first.status).toBe('CREATED');
    const adaId = first.person!.databaseId;
    expect(await changesOf('person', adaId)).toEqual([expect.objectContaining({ action: 'create' })]);

    const results = await upsertPeople(admin, [
      { lastName: 'Lovelace', firstName: 'Augusta', email: 'ADA@example.test' },
      { lastName: 'Hopper', firstName: 'Grace', email: 'grace@example.test' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['UPDATED', 'CREATED']);
    expect(results[0].person).toMatchObject({ databaseId: adaId, firstName: 'Augusta' });
    expect(results[1].person).toMatchObject({ lastName: 'Hopper', email: 'grace@example.test' });
    expect(await peopleWithEmail('ada@example.test')).toEqual([{ id: adaId, first_name: 'Augusta', last_name: 'Lovelace' }]);
    const adaChanges = await changesOf('person', adaId);
    expect(adaChanges).toHaveLength(2);
    expect(adaChanges[1]).toMatchObject({ action: 'update', changes: { first_name: ['Ada', 'Augusta'] } });

    const updatedAt = (await server.sql('select updated_at from people where id = ?', [adaId]))[0].updated_at;
    const again = await upsertPeople(admin, [{ lastName: 'Lovelace', firstName: 'Augusta', email: 'ADA@example.test' }]);
    expect(again).toEqual([{ status: 'UNCHANGED', person: expect.objectContaining({ databaseId: adaId, firstName: 'Augusta' }), userErrors: [] }]);
    expect(await changesOf('person', adaId)).toHaveLength(2);
    expect((await server.sql('select updated_at from people where id = ?', [adaId]))[0].updated_at).toEqual(updatedAt);
  });

  it('refuses a bad input alone: its user errors name it, nothing of it is written, the others are', async () => {
    const companiesBefore = (await server.sql('select count(*)::int as n from companies where account_id = ?', [account.accountId]))[0].n;
    const lastChange = Number((await server.sql('select coalesce(max(id), 0) as m from record_changes'))[0].m);
    const results = await upsertPeople(admin, [
      { lastName: 'Turing', email: 'alan@example.test' },
      // companyName would create a company before the too-long last name is refused: rolled back with it.
      { lastName: 'x'.repeat(101), email: 'bad@example.test', companyName: 'Never Made Ltd' },
      { lastName: '', email: 'blank@example.test' },
      { lastName: 'NoEmail' },
      { lastName: 'Shannon', email: 'claude@example.test' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['CREATED', 'FAILED', 'FAILED', 'FAILED', 'CREATED']);
    expect(results[1]).toEqual({
      status: 'FAILED',
      person: null,
      userErrors: [expect.objectContaining({ field: ['inputs', '1', 'lastName'], code: 'TOO_LONG' })],
    });
    expect(results[2].userErrors).toEqual([expect.objectContaining({ field: ['inputs', '2', 'lastName'], code: 'BLANK' })]);
    expect(results[3].userErrors).toEqual([expect.objectContaining({ field: ['inputs', '3', 'email'], code: 'BLANK' })]);
    expect(results[3].userErrors[0].message).toMatch(/match key/);
    expect(await peopleWithEmail('bad@example.test')).toEqual([]);
    expect(await peopleWithEmail('blank@example.test')).toEqual([]);
    expect(await peopleWithEmail('alan@example.test')).toHaveLength(1);
    expect(await peopleWithEmail('claude@example.test')).toHaveLength(1);
    const companiesAfter = (await server.sql('select count(*)::int as n from companies where account_id = ?', [account.accountId]))[0].n;
    expect(companiesAfter).toBe(companiesBefore);
    expect(await server.sql('select id from companies where account_id = ? and name = ?', [account.accountId, 'Never Made Ltd'])).toEqual([]);
    // The refused inputs left no change either: only the two people created.
    const changes = await server.sql<{ model: string; action: string }>(
      'select model, action from record_changes where id > ? and account_id = ? order by id',
      [lastChange, account.accountId],
    );
    expect(changes).toEqual([
      { model: 'person', action: 'create' },
      { model: 'person', action: 'create' },
    ]);
  });

  it('refuses more than 100 inputs before writing anything', async () => {
    const inputs = Array.from({ length: 101 }, (_, i) => ({ lastName: `Many${i}`, email: `many${i}@example.test` }));
    const res = await server.graphql(admin, UPSERT_PEOPLE, { inputs });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].message).toMatch(/inputs: at most 100 inputs in one call \(got 101\)/);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await peopleWithEmail('many0@example.test')).toEqual([]);
  });

  it('a second input with the key of an earlier one updates what the earlier one wrote', async () => {
    const results = await upsertPeople(admin, [
      { lastName: 'Noether', email: 'emmy@example.test' },
      { lastName: 'Noether', firstName: 'Emmy', email: 'Emmy@example.test' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['CREATED', 'UPDATED']);
    expect(results[1].person!.databaseId).toBe(results[0].person!.databaseId);
    expect(await peopleWithEmail('emmy@example.test')).toEqual([{ id: results[0].person!.databaseId, first_name: 'Emmy', last_name: 'Noether' }]);
  });

  it('never matches a record the viewer may not see: a member gets a record of their own, the hidden one untouched', async () => {
    const [hidden] = await upsertPeople(admin, [{ lastName: 'Hidden', firstName: 'Secret', email: 'hidden@example.test' }]);
    const [mine] = await upsertPeople(own.apiKey, [{ lastName: 'Mine', email: 'hidden@example.test' }]);
    expect(mine.status).toBe('CREATED');
    expect(mine.person!.databaseId).not.toBe(hidden.person!.databaseId);
    expect(mine.person!.ownerId).toBe(own.id);
    const rows = await peopleWithEmail('hidden@example.test');
    expect(rows).toEqual([
      { id: hidden.person!.databaseId, first_name: 'Secret', last_name: 'Hidden' },
      { id: mine.person!.databaseId, first_name: null, last_name: 'Mine' },
    ]);
    // The member's own record is theirs to update; for the admin, who sees both, the email is now ambiguous.
    const [again] = await upsertPeople(own.apiKey, [{ lastName: 'Mine', firstName: 'Really', email: 'hidden@example.test' }]);
    expect(again).toMatchObject({ status: 'UPDATED', person: { databaseId: mine.person!.databaseId, firstName: 'Really' } });
    const [ambiguous] = await upsertPeople(admin, [{ lastName: 'Either', email: 'hidden@example.test' }]);
    expect(ambiguous).toEqual({
      status: 'FAILED',
      person: null,
      userErrors: [expect.objectContaining({ field: ['inputs', '0', 'email'], code: 'AMBIGUOUS_MATCH' })],
    });
    expect((await peopleWithEmail('hidden@example.test')).map((r) => r.last_name)).toEqual(['Hidden', 'Mine']);
  });

  it('matches by an external id: a text custom field of the account', async () => {
    const label = await server.graphql(
      admin,
      'mutation { createCustomFieldLabel(input: { resource: PERSON, kind: TEXT, name: "CRM id" }) { customFieldLabel { databaseId } userErrors { code } } }',
    );
    const fieldId = label.body.data.createCustomFieldLabel.customFieldLabel.databaseId as number;
    const key = `custom_label_${fieldId}`;
    const created = await upsertPeople(admin, [{ lastName: 'Ext', customFields: { [key]: 'X-1' } }], { externalIdField: fieldId });
    expect(created[0].status).toBe('CREATED');
    const updated = await upsertPeople(
      admin,
      [
        { lastName: 'Ext', firstName: 'Renamed', customFields: { [key]: 'X-1' } },
        { lastName: 'Nokey', email: 'nokey@example.test' },
      ],
      { externalIdField: fieldId },
    );
    expect(updated[0]).toMatchObject({ status: 'UPDATED', person: { databaseId: created[0].person!.databaseId, firstName: 'Renamed' } });
    expect(updated[1].userErrors).toEqual([expect.objectContaining({ field: ['inputs', '1', 'customFields', key], code: 'BLANK' })]);

    const numeric = await server.graphql(
      admin,
      'mutation { createCustomFieldLabel(input: { resource: PERSON, kind: NUMERIC, name: "Legacy number" }) { customFieldLabel { databaseId } } }',
    );
    const numericId = numeric.body.data.createCustomFieldLabel.customFieldLabel.databaseId as number;
    const byNumber = await upsertPeople(
      admin,
      [
        { lastName: 'Num', customFields: { [`custom_label_${numericId}`]: 42 } },
        { lastName: 'Num', firstName: 'Again', customFields: { [`custom_label_${numericId}`]: '42' } },
        { lastName: 'Bad', customFields: { [`custom_label_${numericId}`]: 'forty-two' } },
      ],
      { externalIdField: numericId },
    );
    expect(byNumber.map((r) => r.status)).toEqual(['CREATED', 'UPDATED', 'FAILED']);
    expect(byNumber[1].person!.databaseId).toBe(byNumber[0].person!.databaseId);
    expect(byNumber[2].userErrors).toEqual([expect.objectContaining({ field: ['inputs', '2', 'customFields', `custom_label_${numericId}`], code: 'INVALID' })]);

    const wrong = await server.graphql(admin, UPSERT_PEOPLE, { inputs: [{ lastName: 'X' }], externalIdField: 999999 });
    expect(wrong.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(wrong.body.errors[0].message).toMatch(/externalIdField: no custom field 999999/);
    const both = await server.graphql(admin, UPSERT_PEOPLE, { inputs: [{ lastName: 'X' }], externalIdField: fieldId, matchBy: 'EMAIL' });
    expect(both.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(both.body.errors[0].message).toMatch(/not both/);
  });

  it('upserts companies by name and deals by name and company', async () => {
    const companies = await server.graphql(
      admin,
      `mutation($inputs: [CompanyCreateInput!]!) { upsertCompanies(inputs: $inputs) { results { status company { databaseId name } userErrors { field code } } } }`,
      { inputs: [{ name: 'Acme' }, { name: ' acme ', website: 'acme.test' }, { name: '' }] },
    );
    const cResults = companies.body.data.upsertCompanies.results;
    expect(cResults.map((r: Result) => r.status)).toEqual(['CREATED', 'UPDATED', 'FAILED']);
    expect(cResults[2].userErrors).toEqual([{ field: ['inputs', '2', 'name'], code: 'BLANK' }]);
    const acmeId = cResults[0].company.databaseId;

    const DEALS = `mutation($inputs: [DealCreateInput!]!) { upsertDeals(inputs: $inputs) { results { status deal { databaseId name companyId } userErrors { field code } } } }`;
    const first = await server.graphql(admin, DEALS, { inputs: [{ name: 'Anvils', companyId: acmeId }, { name: 'Anvils' }] });
    expect(first.body.data.upsertDeals.results.map((r: Result) => r.status)).toEqual(['CREATED', 'CREATED']);
    const [withCompany, without] = first.body.data.upsertDeals.results;
    expect(withCompany.deal.companyId).toBe(acmeId);
    expect(without.deal.companyId).toBeNull();
    const second = await server.graphql(admin, DEALS, {
      inputs: [
        { name: 'anvils', companyName: 'ACME', summary: 'By name' },
        { name: 'Anvils', summary: 'No company' },
        { name: 'anvils', companyId: acmeId, summary: 'By name' },
      ],
    });
    const results = second.body.data.upsertDeals.results;
    expect(results.map((r: Result) => r.status)).toEqual(['UPDATED', 'UPDATED', 'UNCHANGED']);
    expect(results.map((r: { deal: { databaseId: number } }) => r.deal.databaseId)).toEqual([
      withCompany.deal.databaseId,
      without.deal.databaseId,
      withCompany.deal.databaseId,
    ]);
  });

  it('costs a unit per 20 inputs', async () => {
    const limited = await startTestServer({ RATE_LIMIT_BURST: '4', RATE_LIMIT_PER_SECOND: '0.001' });
    try {
      const acc = await limited.createAccount();
      const inputs = Array.from({ length: 100 }, (_, i) => ({ lastName: `Cost${i}`, email: `cost${i}@example.test` }));
      const res = await limited.graphql(acc.admin.apiKey, UPSERT_PEOPLE, { inputs });
      expect(res.body.errors[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');
      expect(res.body.extensions.cost.requested).toBe(5);
      const small = await limited.graphql(acc.admin.apiKey, UPSERT_PEOPLE, { inputs: inputs.slice(0, 40) });
      expect(small.body.errors).toBeUndefined();
      expect(small.body.extensions.cost.requested).toBe(2);
      expect(small.body.data.upsertPeople.results).toHaveLength(40);
    } finally {
      await limited.close();
    }
  });
});
