import { seedCustomField } from '../support/custom-fields';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Deals imports (issue 27 §1) on a real server with a worker: each row read as a v3 create reads
 * a deal's attributes and written by the deal's own create and update, so the deal service's rules
 * hold (a stage sets the probability, value takes the currency's places, a close date makes a
 * task, companies by name, custom fields checked); matched by name and company or an external id;
 * a dry run; an export of deals imports back unchanged.
 */

const IMPORT_FIELDS = `databaseId state rowsTotal rowsProcessed rowsCreated rowsUpdated rowsUnchanged rowsFailed failure
  errors(first: 50) { nodes { rowNumber column code message } }`;

describe('deals imports', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let stageId: number;
  let rita: { id: number; email: string };
  let ref: string;
  let size: string;

  beforeAll(async () => {
    server = await startTestServer({ RUN_WORKER: 'true', JOB_POLL_INTERVAL_MS: '200', IMPORT_BATCH_ROWS: '2' });
    account = await server.createAccount({ timeZone: 'America/New_York' });
    key = account.admin.apiKey;
    const stage = await server.graphql(
      key,
      'mutation { createDealStage(input: { name: "Imported proposal", percent: 60 }) { dealStage { databaseId } userErrors { message } } }',
    );
    stageId = stage.body.data.createDealStage.dealStage.databaseId;
    const email = `rita-${Date.now()}@example.test`;
    rita = { id: (await account.addUser({ email })).id, email };
    ref = (await seedCustomField(server, account.accountId, 'deal', 'text', 'CRM ref')).label;
    size = (await seedCustomField(server, account.accountId, 'deal', 'numeric', 'Seats')).label;
  });
  afterAll(async () => {
    await server.close();
  });

  const run = async (body: string, input: Record<string, unknown>, contentType = 'text/csv') => {
    const up = await server.request('POST', '/api/imports/uploads', { apiKey: key, body, contentType });
    expect(up.status).toBe(201);
    const res = await server.graphql(
      key,
      `mutation($input: StartImportInput!) { startImport(input: $input) { import { databaseId } userErrors { field code message } } }`,
      { input: { resource: 'DEALS', uploadId: up.body.uploadId, ...input } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.startImport.userErrors).toEqual([]);
    return waitFor(String(res.body.data.startImport.import.databaseId));
  };

  const waitFor = async (id: string) => {
    for (let i = 0; i < 300; i++) {
      const res = await server.graphql(key, `query($id: ID!) { import(id: $id) { ${IMPORT_FIELDS} } }`, { id });
      const imp = res.body.data?.import;
      if (!imp) throw new Error(JSON.stringify(res.body));
      if (['DONE', 'FAILED', 'CANCELLED'].includes(imp.state)) return imp;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the import did not finish');
  };

  const deals = () =>
    server.sql(
      `select d.name, d.value::text as value, d.probability, d.stage_id as deal_stage_id, d.owner_id, c.name as company, d.expected_close_date::text as close,
              d.expected_close_date_event_id is not null as has_task, d.custom_fields
         from deals d left join companies c on c.id = d.company_id where d.account_id = ? order by d.id`,
      [account.accountId],
    );

  it("creates deals by the deal service's rules, refusing bad rows with their row and column", async () => {
    const csv = [
      `name,value,deal_stage_id,company_name,owner_email,expected_close_date,${ref},${size}`,
      `Big deal,5000,${stageId},Acme,${rita.email},2026-12-24,A-1,12`,
      `Bad value,lots,,,,,,`,
      `,100,,,,,,`, // no name
      `Nobody's,1,,,nobody@example.test,,,`,
      `Wrong seats,1,,,,,,many`,
      `Other stage,1,999999,,,,,`,
      `Small deal,12.555,,Acme,,,B-2,`,
    ].join('\n');
    const imp = await run(csv, { mode: 'CREATE' });
    expect(imp).toMatchObject({ state: 'DONE', failure: null, rowsTotal: 7, rowsProcessed: 7, rowsCreated: 2, rowsFailed: 5 });
    expect(imp.errors.nodes).toEqual([
      { rowNumber: 2, column: 'value', code: 'INVALID', message: 'value must be a decimal number' },
      { rowNumber: 3, column: 'name', code: 'BLANK', message: "name can't be blank" },
      { rowNumber: 4, column: 'owner_email', code: 'NOT_FOUND', message: 'no user of the account has this email' },
      { rowNumber: 5, column: size, code: 'INVALID', message: expect.stringContaining(size) },
      { rowNumber: 6, column: 'deal_stage_id', code: 'NOT_FOUND', message: expect.stringContaining('deal_stage_id') },
    ]);
    expect(await deals()).toEqual([
      {
        name: 'Big deal',
        value: '5000.0000',
        probability: 60, // from the stage
        deal_stage_id: stageId,
        owner_id: rita.id,
        company: 'Acme',
        close: '2026-12-24',
        has_task: true, // the close date's task
        custom_fields: { [ref]: 'A-1', [size]: 12 },
      },
      {
        name: 'Small deal',
        value: '12.5600', // the currency's two places
        probability: null,
        deal_stage_id: null,
        owner_id: account.admin.id,
        company: 'Acme', // the same company, found by name
        close: null,
        has_task: false,
        custom_fields: { [ref]: 'B-2' },
      },
    ]);
    const companies = await server.sql(`select count(*)::int as n from companies where account_id = ? and name = 'Acme'`, [account.accountId]);
    expect(companies[0].n).toBe(1);
    const changes = await server.sql(`select count(*)::int as n from record_changes where account_id = ? and model = 'deal' and origin = 'import'`, [
      account.accountId,
    ]);
    expect(changes[0].n).toBe(2);
  });

  it('upserts by name and company: updates what differs, counts the unchanged, refuses duplicates in the file; a dry run writes nothing', async () => {
    const csv = ['name,company_name,value', 'big DEAL,acme,7000', 'Small deal,Acme,12.56', 'New one,,3', 'New one,,4'].join('\n');
    const dry = await run(csv, { mode: 'UPSERT', dryRun: true });
    expect(dry).toMatchObject({ state: 'DONE', rowsCreated: 1, rowsUpdated: 1, rowsUnchanged: 1, rowsFailed: 1 });
    expect((await deals()).map((d) => [d.name, d.value])).toEqual([
      ['Big deal', '5000.0000'],
      ['Small deal', '12.5600'],
    ]);
    const imp = await run(csv, { mode: 'UPSERT', matchBy: 'NAME_AND_COMPANY' });
    expect(imp).toMatchObject({ state: 'DONE', rowsTotal: 4, rowsCreated: 1, rowsUpdated: 1, rowsUnchanged: 1, rowsFailed: 1 });
    expect(imp.errors.nodes).toEqual([{ rowNumber: 4, column: 'name', code: 'DUPLICATE', message: 'an earlier row of the file has the same name' }]);
    expect((await deals()).map((d) => [d.name, d.value, d.probability])).toEqual([
      ['big DEAL', '7000.0000', 60], // matched ignoring case, then named as the row names it
      ['Small deal', '12.5600', null],
      ['New one', '3.0000', null],
    ]);
  });

  it('updates by an external id from JSONL (custom fields as an export writes them); UPDATE refuses a row matching nothing', async () => {
    const jsonl = [
      JSON.stringify({ custom_fields: { [ref]: 'A-1' }, summary: 'From the old CRM', probability: 100 }),
      JSON.stringify({ custom_fields: { [ref]: 'Z-9' }, summary: 'Nobody has it' }),
    ].join('\n');
    const imp = await run(jsonl, { mode: 'UPDATE', externalIdField: ref }, 'application/jsonl');
    expect(imp).toMatchObject({ state: 'DONE', rowsUpdated: 1, rowsFailed: 1 });
    expect(imp.errors.nodes).toEqual([{ rowNumber: 2, column: ref, code: 'NOT_FOUND', message: expect.stringContaining('no deal matches') }]);
    const [big] = await server.sql(`select summary, probability, closed_time is not null as closed from deals where account_id = ? and name = 'big DEAL'`, [
      account.accountId,
    ]);
    // Probability 100 closes the deal: the service's rule.
    expect(big).toEqual({ summary: 'From the old CRM', probability: 100, closed: true });
  });

  it('imports a CSV export of deals back unchanged', async () => {
    const started = await server.graphql(
      key,
      'mutation { startExport(input: { resource: DEALS, format: CSV }) { export { databaseId } userErrors { message } } }',
    );
    expect(started.body.data.startExport.userErrors).toEqual([]);
    let done: { state: string; downloadUrl: string } | null = null;
    for (let i = 0; i < 200 && done?.state !== 'DONE'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      done = (
        await server.graphql(key, 'query($id: ID!) { export(id: $id) { state downloadUrl } }', { id: String(started.body.data.startExport.export.databaseId) })
      ).body.data.export;
    }
    expect(done?.state).toBe('DONE');
    const csv = await (await fetch(done!.downloadUrl)).text();
    const before = await deals();
    const imp = await run(csv, { mode: 'UPSERT' });
    expect(imp).toMatchObject({ state: 'DONE', failure: null, rowsTotal: 3, rowsCreated: 0, rowsUpdated: 0, rowsUnchanged: 3, rowsFailed: 0 });
    expect(await deals()).toEqual(before);
  });

  it('a cancel stops a running deals import at its next checkpoint; what it wrote before stays', async () => {
    const lines = ['name'];
    for (let i = 1; i <= 300; i++) lines.push(`Cancelled ${i}`);
    const up = await server.request('POST', '/api/imports/uploads', { apiKey: key, body: lines.join('\n'), contentType: 'text/csv' });
    const started = await server.graphql(key, `mutation($input: StartImportInput!) { startImport(input: $input) { import { databaseId } } }`, {
      input: { resource: 'DEALS', uploadId: up.body.uploadId, mode: 'CREATE' },
    });
    const id = String(started.body.data.startImport.import.databaseId);
    for (let i = 0; i < 500; i++) {
      const now = (await server.graphql(key, `query($id: ID!) { import(id: $id) { rowsProcessed } }`, { id })).body.data.import;
      if (now.rowsProcessed > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const cancelled = await server.graphql(key, `mutation($id: ID!) { cancelImport(id: $id) { userErrors { message } } }`, { id });
    expect(cancelled.body.data.cancelImport.userErrors).toEqual([]);
    const imp = await waitFor(id);
    expect(imp.state).toBe('CANCELLED');
    expect(imp.rowsProcessed).toBeLessThan(300);
    const written = await server.sql(`select count(*)::int as n from deals where account_id = ? and name like 'Cancelled %'`, [account.accountId]);
    expect(written[0].n).toBe(imp.rowsCreated);
  });
});
