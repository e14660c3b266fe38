import { Visibility } from '../../src/modules/users/user.entity';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Linking follows the visibility rule: an `own` user cannot attach a person to a company that is
 * answered 404 to them, by id or by name, and learns nothing of its existence either way.
 */
describe('linking a company the viewer cannot see', () => {
  let server: TestServer;
  let account: TestAccount;
  let adminKey: string;
  let own: { id: number; apiKey: string };
  let hidden: { id: number; name: string };

  const CREATE = `mutation ($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId companyId company { databaseId name } } userErrors { field code message } } }`;
  const UPDATE = `mutation ($id: Int!, $input: PersonUpdateInput!) { updatePerson(id: $id, input: $input) { person { databaseId companyId } userErrors { field code message } } }`;

  beforeAll(async () => {
    ({ server, account, key: adminKey } = await openServerWithAccount());
    own = await account.addUser({ visibility: Visibility.OWN });
    const res = await server.v3(adminKey).post('/companies.json', { company: { name: 'Hidden Works' } });
    hidden = { id: res.body.id, name: res.body.name };
    // The company really is hidden from the own user.
    expect((await server.v3(own.apiKey).get(`/companies/${hidden.id}.json`)).status).toBe(404);
  }, 60_000);
  afterAll(() => server.close());

  const companiesNamed = (name: string) =>
    server.sql<{ id: number; owner_id: number }>('select id, owner_id from companies where account_id = ? and name = ? order by id', [account.accountId, name]);

  it('v3: company_id of a hidden company is 422 on company_id, on create and update', async () => {
    const created = await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'Linker', company_id: hidden.id } });
    expect(created.status).toBe(422);
    expect(created.body).toEqual([{ field: 'company_id', humanized_field: 'Company', msg: 'does not exist' }]);
    expect(await server.sql('select id from people where account_id = ? and last_name = ?', [account.accountId, 'Linker'])).toEqual([]);

    const mine = await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'Mine' } });
    expect(mine.status).toBe(200);
    const updated = await server.v3(own.apiKey).put(`/people/${mine.body.id}.json`, { person: { company_id: hidden.id } });
    expect(updated.status).toBe(422);
    expect(updated.body).toEqual([{ field: 'company_id', humanized_field: 'Company', msg: 'does not exist' }]);
    const [row] = await server.sql<{ company_id: number | null }>('select company_id from people where id = ?', [mine.body.id]);
    expect(row.company_id).toBeNull();
  });

  it('GraphQL: companyId of a hidden company fails validation on companyId', async () => {
    const res = await server.graphql(own.apiKey, CREATE, { input: { lastName: 'GqlLinker', companyId: hidden.id } });
    expect(res.body.data.createPerson).toEqual({ person: null, userErrors: [{ field: ['input', 'companyId'], code: 'NOT_FOUND', message: 'does not exist' }] });
    const mine = await server.graphql(own.apiKey, CREATE, { input: { lastName: 'GqlMine' } });
    const upd = await server.graphql(own.apiKey, UPDATE, { id: mine.body.data.createPerson.person.databaseId, input: { companyId: hidden.id } });
    expect(upd.body.data.updatePerson).toEqual({ person: null, userErrors: [{ field: ['input', 'companyId'], code: 'NOT_FOUND', message: 'does not exist' }] });
  });

  it('v3: company_name of a hidden company creates a namesake owned by the viewer, never links the hidden one', async () => {
    const res = await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'ByName', company_name: hidden.name } });
    expect(res.status).toBe(200);
    expect(res.body.company_id).not.toBe(hidden.id);
    expect(res.body.company).toEqual({ id: res.body.company_id, name: hidden.name });
    const named = await companiesNamed(hidden.name);
    expect(named.map((c) => c.id)).toContain(hidden.id);
    const namesake = named.find((c) => c.id === res.body.company_id)!;
    expect(namesake.owner_id).toBe(own.id);
    // The namesake is the own user's, so the next person of that name joins it instead of a third.
    const again = await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'ByNameAgain', company_name: hidden.name.toUpperCase() } });
    expect(again.body.company_id).toBe(namesake.id);
    // Sending the hidden id with its name is still no way in.
    const both = await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'Both', company_id: hidden.id, company_name: hidden.name } });
    expect(both.status).toBe(200);
    expect(both.body.company_id).toBe(namesake.id);
  });

  it('GraphQL: companyName of a hidden company does not link it', async () => {
    const name = 'Hidden Gql Works';
    const hiddenGql = (await server.v3(adminKey).post('/companies.json', { company: { name } })).body.id;
    const res = await server.graphql(own.apiKey, CREATE, { input: { lastName: 'GqlByName', companyName: name } });
    expect(res.body.errors).toBeUndefined();
    const person = res.body.data.createPerson.person;
    expect(person.companyId).not.toBe(hiddenGql);
    expect(person.company.name).toBe(name);
    expect((await companiesNamed(name)).map((c) => c.id)).toEqual([hiddenGql, person.companyId]);
    // Person.company shows only a company the viewer may see; companyName and companyId show it whatever.
    // An admin links the own user's person to the company that user cannot see.
    expect((await server.v3(adminKey).put(`/people/${person.databaseId}.json`, { person: { company_id: hiddenGql } })).status).toBe(200);
    const query = `{ person(id: ${person.databaseId}) { companyId companyName company { name } } }`;
    expect((await server.graphql(own.apiKey, query)).body.data.person).toEqual({ companyId: hiddenGql, companyName: name, company: null });
    expect((await server.graphql(adminKey, query)).body.data.person).toEqual({ companyId: hiddenGql, companyName: name, company: { name } });
  });

  it('users who see everything still link any company of the account, and an own user links their own', async () => {
    const ownAdmin = await account.addUser({ visibility: Visibility.OWN, isAdmin: true });
    const byAdmin = await server.v3(ownAdmin.apiKey).post('/people.json', { person: { last_name: 'AdminLink', company_id: hidden.id } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.company_id).toBe(hidden.id);
    const byName = await server.v3(ownAdmin.apiKey).post('/people.json', { person: { last_name: 'AdminByName', company_name: 'hidden works' } });
    expect(byName.body.company_id).toBe(hidden.id);

    const mineCo = (await server.v3(own.apiKey).post('/companies.json', { company: { name: 'Own Works' } })).body.id;
    const linked = await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'OwnLink', company_id: mineCo } });
    expect(linked.body.company_id).toBe(mineCo);
  });

  it('a hidden company a person already has stays linked when the record is sent back', async () => {
    const given = await server.v3(adminKey).post('/people.json', { person: { last_name: 'Given', user_id: own.id, company_id: hidden.id } });
    expect(given.body.company_id).toBe(hidden.id);
    // The convenience object is shown whatever the viewer may see (existing decision).
    const shown = await server.v3(own.apiKey).get(`/people/${given.body.id}.json`);
    expect(shown.body.company).toEqual({ id: hidden.id, name: hidden.name });
    const back = await server
      .v3(own.apiKey)
      .put(`/people/${given.body.id}.json`, { person: { first_name: 'Kept', company_id: hidden.id, company_name: hidden.name } });
    expect(back.status).toBe(200);
    expect(back.body).toEqual(expect.objectContaining({ first_name: 'Kept', company_id: hidden.id }));
  });
});
