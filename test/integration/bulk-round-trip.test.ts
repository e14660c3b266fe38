import { seedCustomField } from '../support/custom-fields';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 27 §1: an export imports back unchanged. People exported as CSV by one job, the file
 * uploaded as it is (no mapping) and imported by another as an upsert by email: every row matches
 * its person and changes nothing.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ RUN_WORKER: 'true', JOB_POLL_INTERVAL_MS: '200' });
});
afterAll(async () => {
  await server.close();
});

async function until<T extends { state: string }>(read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await read();
    if (['DONE', 'FAILED', 'CANCELLED'].includes(found.state)) return found;
    if (Date.now() > deadline) throw new Error(`still ${found.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('people exported as CSV import back by email, every row unchanged', async () => {
  const account = await server.createAccount({ timeZone: 'America/New_York' });
  const key = account.admin.apiKey;
  const label = (await seedCustomField(server, account.accountId, 'person', 'text', 'Shoe size')).label;
  for (const input of [
    {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
      position: 'Countess, "analyst"',
      companyName: 'Engines',
      customFields: { [label]: '38' },
    },
    { lastName: 'Turing', email: 'alan@example.test', workCity: 'Wilmslow', summary: 'line one\nline two' },
  ]) {
    const res = await server.graphql(key, 'mutation($input: PersonCreateInput!) { createPerson(input: $input) { userErrors { message } } }', { input });
    expect(res.body.data.createPerson.userErrors).toEqual([]);
  }

  const started = await server.graphql(
    key,
    'mutation { startExport(input: { resource: PEOPLE, format: CSV }) { export { databaseId } userErrors { message } } }',
  );
  expect(started.body.data.startExport.userErrors).toEqual([]);
  const done = await until(
    async () =>
      (
        await server.graphql(key, 'query($id: ID!) { export(id: $id) { state failure downloadUrl } }', {
          id: String(started.body.data.startExport.export.databaseId),
        })
      ).body.data.export,
  );
  expect(done).toMatchObject({ state: 'DONE', failure: null });
  const csv = await (await fetch(done.downloadUrl)).text();

  const upload = await server.request('POST', '/api/imports/uploads', { apiKey: key, body: csv, contentType: 'text/csv' });
  expect(upload.status).toBe(201);
  const imported = await server.graphql(
    key,
    'mutation($input: StartImportInput!) { startImport(input: $input) { import { databaseId } userErrors { field message } } }',
    { input: { resource: 'PEOPLE', uploadId: upload.body.uploadId, mode: 'UPSERT', matchBy: 'EMAIL' } },
  );
  expect(imported.body.data.startImport.userErrors).toEqual([]);
  const result = await until(
    async () =>
      (
        await server.graphql(
          key,
          'query($id: ID!) { import(id: $id) { state failure rowsProcessed rowsCreated rowsUpdated rowsUnchanged rowsFailed errors { nodes { rowNumber column code message } } } }',
          { id: String(imported.body.data.startImport.import.databaseId) },
        )
      ).body.data.import,
  );
  expect(result).toMatchObject({ state: 'DONE', failure: null, rowsProcessed: 2, rowsCreated: 0, rowsUpdated: 0, rowsUnchanged: 2, rowsFailed: 0 });
});
