import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { documentStorage } from '../../src/modules/documents/storage';
import { pruneExpiredUploads, pruneFinishedImportFiles } from '../../src/modules/imports/import.service';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Bulk imports (issue 27 §1, §3) on a real server with a worker: upload, startImport, the job's
 * stage and apply phases, progress, row errors, visibility and scopes.
 */

const IMPORT_FIELDS = `id databaseId state estimatedSecondsLeft resource mode dryRun rowsTotal rowsProcessed rowsCreated rowsUpdated rowsUnchanged rowsFailed failure failedRowsUrl
  errors(first: 50) { totalCount nodes { rowNumber column code message } }`;

describe('imports', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({
      RUN_WORKER: 'true',
      JOB_POLL_INTERVAL_MS: '200',
      IMPORT_BATCH_ROWS: '3',
      IMPORT_MAX_ROWS: '50',
      IMPORT_MAX_COLUMNS: '12',
      IMPORT_MAX_CELL_CHARS: '300',
      IMPORT_MAX_BYTES: '20000',
      // The files served by the test (import from a URL) are on loopback.
      DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1',
    });
    account = await server.createAccount();
    key = account.admin.apiKey;
  });
  afterAll(async () => {
    await server.close();
  });

  const upload = async (body: string, contentType = 'text/csv', apiKey = key) => {
    const res = await server.request('POST', '/api/imports/uploads', { apiKey, body, contentType });
    return res;
  };

  const start = async (input: Record<string, unknown>, apiKey = key) => {
    const res = await server.graphql(
      apiKey,
      `mutation($input: StartImportInput!) { startImport(input: $input) { import { ${IMPORT_FIELDS} } userErrors { field code message } } }`,
      {
        input,
      },
    );
    expect(res.body.errors).toBeUndefined();
    return res.body.data.startImport;
  };

  const waitFor = async (id: string, apiKey = key) => {
    for (let i = 0; i < 200; i++) {
      const res = await server.graphql(apiKey, `query($id: ID!) { import(id: $id) { ${IMPORT_FIELDS} } }`, { id });
      const imp = res.body.data?.import;
      if (!imp) throw new Error(JSON.stringify(res.body));
      if (['DONE', 'FAILED', 'CANCELLED'].includes(imp.state)) return imp;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the import did not finish');
  };

  const run = async (csv: string, input: Record<string, unknown>, contentType = 'text/csv') => {
    const up = await upload(csv, contentType);
    expect(up.status).toBe(201);
    const started = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, ...input });
    expect(started.userErrors).toEqual([]);
    return waitFor(started.import.id);
  };

  it('refuses an upload without a key (401)', async () => {
    const res = await upload('last_name\nX\n', 'text/csv', '');
    expect(res.status).toBe(401);
  });

  it('creates people from a CSV, reporting bad rows by row number and column', async () => {
    const csv = [
      'first_name,last_name,email,position',
      'Ada,Lovelace,ada@example.com,Countess',
      'Bad,,bad@example.com,', // no last name
      `Long,${'x'.repeat(101)},long@example.com,`,
      'Alan,Turing,alan@example.com,',
      'Grace,Hopper,grace@example.com,Admiral',
    ].join('\n');
    const imp = await run(csv, { mode: 'CREATE' });
    expect(imp).toMatchObject({ state: 'DONE', rowsTotal: 5, rowsProcessed: 5, rowsCreated: 3, rowsFailed: 2, failure: null, estimatedSecondsLeft: 0 });
    // The file's size and how much of it was read: what estimatedSecondsLeft sizes a file by while it is read.
    const bytes = String(Buffer.byteLength(csv));
    expect(await server.sql(`select file_bytes, staged_bytes from imports where id = ?`, [imp.databaseId])).toEqual([
      { file_bytes: bytes, staged_bytes: bytes },
    ]);
    // Writing's pace is timed from when the file was read through, from row 0.
    expect(
      await server.sql(`select pace_since >= started_at and pace_since <= finished_at as timed, pace_from from imports where id = ?`, [imp.databaseId]),
    ).toEqual([{ timed: true, pace_from: 0 }]);
    expect(imp.errors.nodes).toEqual([
      { rowNumber: 2, column: 'last_name', code: 'BLANK', message: "last_name can't be blank" },
      { rowNumber: 3, column: 'last_name', code: 'TOO_LONG', message: 'last_name is too long (maximum is 100 characters)' },
    ]);
    const people = await server.sql(`select first_name, last_name, email, position, owner_id from people where account_id = ? order by id`, [
      account.accountId,
    ]);
    expect(people).toEqual([
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', position: 'Countess', owner_id: account.admin.id },
      { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', position: null, owner_id: account.admin.id },
      { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', position: 'Admiral', owner_id: account.admin.id },
    ]);
    // One change row per record, origin import.
    const changes = await server.sql(`select count(*)::int as n from record_changes where account_id = ? and origin = 'import'`, [account.accountId]);
    expect(changes[0].n).toBe(3);
  });

  it('upserts by email with a mapping: updates what differs, counts the unchanged, refuses duplicates in the file', async () => {
    const csv = [
      'First,Last,E-mail,Company',
      'Ada,Lovelace,ADA@example.com,Analytical Engines', // matches, changes company
      'Alan,Turing,alan@example.com,', // matches, unchanged
      'Katherine,Johnson,kj@example.com,NASA', // new
      'Kathy,J,kj@example.com,', // duplicate of row 3
    ].join('\n');
    const imp = await run(csv, {
      mode: 'UPSERT',
      mapping: [
        { column: 'First', field: 'first_name' },
        { column: 'Last', field: 'last_name' },
        { column: 'E-mail', field: 'email' },
        { column: 'Company', field: 'company_name' },
      ],
    });
    expect(imp).toMatchObject({ state: 'DONE', rowsTotal: 4, rowsCreated: 1, rowsUpdated: 1, rowsUnchanged: 1, rowsFailed: 1 });
    expect(imp.errors.nodes).toEqual([{ rowNumber: 4, column: 'email', code: 'DUPLICATE', message: 'an earlier row of the file has the same email' }]);
    const ada = await server.sql(
      `select c.name from people p join companies c on c.id = p.company_id where p.account_id = ? and lower(p.email) = 'ada@example.com'`,
      [account.accountId],
    );
    expect(ada).toEqual([{ name: 'Analytical Engines' }]);
    expect((await server.sql(`select count(*)::int as n from people where account_id = ?`, [account.accountId]))[0].n).toBe(4);
  });

  it('refuses an unknown column at start, and a bad mapping, as user errors', async () => {
    const up = await upload('last_name,shoe_size\nX,42\n');
    const started = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, mode: 'CREATE' });
    expect(started.import).toBeNull();
    expect(started.userErrors).toEqual([expect.objectContaining({ code: 'INVALID', message: expect.stringContaining('"shoe_size"') })]);
    const again = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, mode: 'CREATE', mapping: [{ column: 'last_name', field: 'nope' }] });
    expect(again.userErrors).toEqual([expect.objectContaining({ field: ['input', 'mapping', '0', 'field'], code: 'INVALID' })]);
  });

  it('imports JSONL, a dry run writes nothing, UPDATE refuses rows matching nothing', async () => {
    const before = (await server.sql(`select count(*)::int as n from people where account_id = ?`, [account.accountId]))[0].n;
    const jsonl = [
      JSON.stringify({ last_name: 'Noether', email: 'emmy@example.com' }),
      'not json',
      JSON.stringify({ last_name: 'Lovelace', email: 'ada@example.com', position: 'Mathematician' }),
    ].join('\n');
    const dry = await run(jsonl, { mode: 'UPSERT', dryRun: true }, 'application/x-ndjson');
    expect(dry).toMatchObject({ state: 'DONE', dryRun: true, rowsCreated: 1, rowsUpdated: 1, rowsFailed: 1 });
    expect(dry.errors.nodes).toEqual([{ rowNumber: 2, column: null, code: 'INVALID', message: 'the line is not valid JSON' }]);
    expect((await server.sql(`select count(*)::int as n from people where account_id = ?`, [account.accountId]))[0].n).toBe(before);
    const update = await run(jsonl, { mode: 'UPDATE' }, 'application/x-ndjson');
    expect(update).toMatchObject({ state: 'DONE', rowsCreated: 0, rowsUpdated: 1, rowsFailed: 2 });
    expect(update.errors.nodes.map((e: { rowNumber: number; code: string }) => [e.rowNumber, e.code])).toEqual([
      [1, 'NOT_FOUND'],
      [2, 'INVALID'],
    ]);
    expect((await server.sql(`select position from people where account_id = ? and lower(email) = 'ada@example.com'`, [account.accountId]))[0].position).toBe(
      'Mathematician',
    );
  });

  it('fails a malformed CSV with a clear message, and a file of the wrong encoding', async () => {
    const bad = await run('last_name,email\n"unclosed,x@example.com\n', { mode: 'CREATE' });
    expect(bad).toMatchObject({ state: 'FAILED', failure: expect.stringContaining('the CSV is malformed') });
    const up = await fetch(`${server.url}/api/imports/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
      body: Buffer.from('last_name\nM\xfcller\n', 'latin1'),
    });
    expect(up.status).toBe(201);
    const started = await start({ resource: 'PEOPLE', uploadId: ((await up.json()) as { uploadId: string }).uploadId, mode: 'CREATE' });
    expect(await waitFor(started.import.id)).toMatchObject({ state: 'FAILED', failure: expect.stringContaining('the file is not UTF-8 text') });
  });

  it("shows an import only to its user and administrators, and needs the resource's scopes", async () => {
    const up = await upload('last_name\nSolo\n');
    const started = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, mode: 'CREATE' });
    const other = await account.addUser({ isAdmin: false } as never);
    const seen = await server.graphql(other.apiKey, `query($id: ID!) { import(id: $id) { id } }`, { id: started.import.id });
    expect(seen.body.data.import).toBeNull();
    // Someone else's upload is no upload of theirs.
    const theirs = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, mode: 'CREATE' }, other.apiKey);
    expect(theirs.userErrors).toEqual([expect.objectContaining({ code: 'NOT_FOUND' })]);
    await waitFor(started.import.id);
    // A key with people:read may read imports of people, not upload or start one.
    const made = await server.graphql(
      key,
      `mutation { createApiKey(input: {name: "reader", scopes: ["people:read"]}) { apiKey { secret } userErrors { message } } }`,
    );
    const reader: string = made.body.data.createApiKey.apiKey.secret;
    expect((await upload('last_name\nX\n', 'text/csv', reader)).status).toBe(403);
    const refused = await server.graphql(reader, `mutation($input: StartImportInput!) { startImport(input: $input) { import { id } } }`, {
      input: { resource: 'PEOPLE', uploadId: '1', mode: 'CREATE' },
    });
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', scope: 'people:write' } });
    const read = await server.graphql(reader, `query($id: ID!) { import(id: $id) { state } }`, { id: started.import.id });
    expect(read.body.data.import.state).toBe('DONE');
  });

  it('takes custom fields, owners by email and company names, matches by an external id, and serves the failed rows as CSV', async () => {
    const [ext, score] = await server.sql(
      `insert into custom_fields (account_id, resource, kind, name, position, created_at, updated_at)
       values (?, 'person', 'text', 'External id', 1, now(), now()), (?, 'person', 'numeric', 'Score', 2, now(), now()) returning id`,
      [account.accountId, account.accountId],
    );
    const rita = await account.addUser({ email: 'rita@example.test' } as never);
    const E = `custom_label_${ext.id}`;
    const S = `custom_label_${score.id}`;
    const csv = [
      `last_name,email,owner_email,company_name,${E},${S}`,
      `Curie,marie@example.com,rita@example.test,Radium Institute,X-1,42`,
      `Bohr,niels@example.com,nobody@example.test,,X-2,1`,
      `Meitner,lise@example.com,,radium institute,X-3,"not, a number"`,
    ].join('\n');
    const imp = await run(csv, { mode: 'UPSERT', externalIdField: E });
    expect(imp).toMatchObject({ state: 'DONE', rowsCreated: 1, rowsFailed: 2 });
    expect(imp.errors.nodes).toEqual([
      { rowNumber: 2, column: 'owner_email', code: 'NOT_FOUND', message: 'no user of the account has this email' },
      { rowNumber: 3, column: S, code: 'INVALID', message: 'must be a number (custom field "Score")' },
    ]);
    const [curie] = await server.sql(
      `select p.owner_id, p.custom_fields, c.name as company from people p join companies c on c.id = p.company_id where p.account_id = ? and p.last_name = 'Curie'`,
      [account.accountId],
    );
    expect(curie).toEqual({ owner_id: rita.id, custom_fields: { [E]: 'X-1', [S]: 42 }, company: 'Radium Institute' });
    // Matched by the external id: the email changes, the record stays one.
    const again = await run([`last_name,email,${E}`, `Curie,marie.curie@example.com,X-1`].join('\n'), { mode: 'UPDATE', externalIdField: E });
    expect(again).toMatchObject({ state: 'DONE', rowsUpdated: 1, rowsCreated: 0, rowsFailed: 0 });
    expect(await server.sql(`select email from people where account_id = ? and last_name = 'Curie'`, [account.accountId])).toEqual([
      { email: 'marie.curie@example.com' },
    ]);

    expect(imp.failedRowsUrl).toMatch(/\/api\/imports\/\d+\/failed-rows\.csv$/);
    const path = new URL(imp.failedRowsUrl).pathname;
    const failed = await server.request('GET', path, { apiKey: key });
    expect(failed.status).toBe(200);
    expect(failed.text).toBe(
      [
        `last_name,email,owner_email,company_name,${E},${S},reason`,
        `Bohr,niels@example.com,nobody@example.test,,X-2,1,owner_email: no user of the account has this email`,
        `Meitner,lise@example.com,,radium institute,X-3,"not, a number","${S}: must be a number (custom field ""Score"")"`,
        '',
      ].join('\r\n'),
    );
    expect((await server.request('GET', path, { apiKey: rita.apiKey })).status).toBe(404);
    expect((await server.request('GET', path)).status).toBe(401);
  });

  it('refuses a record it would create without a required custom field; an update may leave the field out', async () => {
    const [region] = await server.sql(
      `insert into custom_fields (account_id, resource, kind, name, position, is_required, created_at, updated_at)
       values (?, 'person', 'text', 'Region', 3, true, now(), now()) returning id`,
      [account.accountId],
    );
    const R = `custom_label_${region.id}`;
    try {
      const csv = [`last_name,email,${R}`, `Noether,emmy@example.com,`, `Germain,sophie@example.com,EU`, `Lovelace,ada@example.com,`].join('\n');
      const imp = await run(csv, { mode: 'UPSERT' });
      expect(imp).toMatchObject({ state: 'DONE', rowsTotal: 3, rowsCreated: 1, rowsFailed: 1 });
      expect(imp.rowsUpdated + imp.rowsUnchanged).toBe(1);
      expect(imp.errors.nodes).toEqual([{ rowNumber: 1, column: R, code: 'BLANK', message: `${R} can't be blank` }]);
      expect(
        await server.sql(`select custom_fields->>'${R}' as region from people where account_id = ? and last_name = 'Germain'`, [account.accountId]),
      ).toEqual([{ region: 'EU' }]);
      expect(await server.sql(`select id from people where account_id = ? and last_name = 'Noether'`, [account.accountId])).toEqual([]);
    } finally {
      await server.sql(`delete from custom_fields where id = ?`, [region.id]);
    }
  });

  it('serves a row refused as it was read with what could be read of it: its cells, or its JSONL line', async () => {
    const csv = ['last_name,email', 'Ok,ok-row@example.com', 'Too,many@example.com,extra,"more, cells"'].join('\n');
    const imp = await run(csv, { mode: 'CREATE' });
    expect(imp).toMatchObject({ state: 'DONE', rowsCreated: 1, rowsFailed: 1 });
    const failed = await server.request('GET', new URL(imp.failedRowsUrl).pathname, { apiKey: key });
    expect(failed.text).toBe(
      ['last_name,email,reason', 'Too,many@example.com,"the row has 4 cells, the header 2 (cells past the header: ""extra"", ""more, cells"")"', ''].join(
        '\r\n',
      ),
    );
    const jsonl = ['{"last_name":"Fine"}', '{"last_name": broken', '[1,2]'].join('\n');
    const lines = await run(jsonl, { mode: 'CREATE' }, 'application/x-ndjson');
    expect(lines).toMatchObject({ state: 'DONE', rowsCreated: 1, rowsFailed: 2 });
    const failedLines = await server.request('GET', new URL(lines.failedRowsUrl).pathname, { apiKey: key });
    expect(
      failedLines.text
        .trimEnd()
        .split('\n')
        .map((l: string) => JSON.parse(l)),
    ).toEqual([
      { line: '{"last_name": broken', reason: 'the line is not valid JSON' },
      { line: '[1,2]', reason: 'the line is not a JSON object' },
    ]);
  });

  it('bounds files: bytes (413), rows, columns and cells, each with a clear error', async () => {
    const big = await upload('last_name\n' + 'x\n'.repeat(20_000));
    expect(big.status).toBe(413);
    expect(big.body.error).toContain('20000 bytes');
    const rows = await run('last_name\n' + Array.from({ length: 51 }, (_, i) => `R${i}`).join('\n'), { mode: 'CREATE' });
    expect(rows).toMatchObject({ state: 'FAILED', failure: 'the file has more than 50 rows' });
    const wide = await upload(Array.from({ length: 13 }, (_, i) => `c${i}`).join(',') + '\n');
    const startedWide = await start({ resource: 'PEOPLE', uploadId: wide.body.uploadId, mode: 'CREATE', mapping: [{ column: 'c0', field: 'last_name' }] });
    expect(await waitFor(startedWide.import.id)).toMatchObject({ state: 'FAILED', failure: 'the file has 13 columns (at most 12)' });
    const cell = await run(`last_name,summary\nOk,${'y'.repeat(301)}\n`, { mode: 'CREATE' });
    expect(cell).toMatchObject({ state: 'DONE', rowsFailed: 1 });
    expect(cell.errors.nodes[0]).toMatchObject({ rowNumber: 1, column: 'summary', code: 'TOO_LONG', message: 'the cell is longer than 300 characters' });
  });

  it('cancels a queued import', async () => {
    const up = await upload('last_name\nLater\n');
    const started = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, mode: 'CREATE' });
    const res = await server.graphql(key, `mutation($id: ID!) { cancelImport(id: $id) { import { state } userErrors { code } } }`, { id: started.import.id });
    expect(res.body.data.cancelImport.userErrors).toEqual([]);
    expect(['CANCELLED', 'DONE']).toContain((await waitFor(started.import.id)).state);
    const list = await server.graphql(key, `{ imports(first: 2) { totalCount nodes { databaseId } pageInfo { hasNextPage endCursor } } }`);
    expect(list.body.data.imports.nodes[0].databaseId).toBe(started.import.databaseId);
    expect(list.body.data.imports.pageInfo.hasNextPage).toBe(true);
  });

  it('imports companies, matched by name', async () => {
    await server.sql(`insert into companies (account_id, owner_id, name, city, created_at, updated_at) values (?, ?, 'Acme', 'Paris', now(), now())`, [
      account.accountId,
      account.admin.id,
    ]);
    const up = await upload(['name,city,email', 'ACME,Lyon,', 'Globex,Springfield,info@globex.example', ',Nowhere,'].join('\n'));
    const started = await start({ resource: 'COMPANIES', uploadId: up.body.uploadId, mode: 'UPSERT' });
    expect(started.userErrors).toEqual([]);
    const imp = await waitFor(started.import.id);
    expect(imp).toMatchObject({ state: 'DONE', resource: 'COMPANIES', rowsCreated: 1, rowsUpdated: 1, rowsFailed: 1 });
    expect(imp.errors.nodes).toEqual([{ rowNumber: 3, column: 'name', code: 'BLANK', message: 'name is needed to match a record' }]);
    expect(
      await server.sql(`select name, city from companies where account_id = ? and lower(name) in ('acme', 'globex') order by lower(name)`, [account.accountId]),
    ).toEqual([
      { name: 'ACME', city: 'Lyon' },
      { name: 'Globex', city: 'Springfield' },
    ]);
  });

  it('removes unused uploads past their expiry, with their files', async () => {
    const up = await upload('last_name\nGone\n');
    const [row] = await server.sql(`select storage_key from import_uploads where id = ?`, [Number(up.body.uploadId)]);
    const storage = documentStorage()!;
    const before = await storage.get(row.storage_key);
    expect(before).not.toBeNull();
    before!.body.destroy();
    await server.sql(`update import_uploads set expires_at = now() - interval '1 second' where id = ?`, [Number(up.body.uploadId)]);
    expect(await pruneExpiredUploads(server.orm.em.fork(), storage, 10_000)).toBeGreaterThanOrEqual(1);
    expect(await storage.get(row.storage_key)).toBeNull();
    expect(await server.sql(`select id from import_uploads where id = ?`, [Number(up.body.uploadId)])).toEqual([]);
    const started = await start({ resource: 'PEOPLE', uploadId: up.body.uploadId, mode: 'CREATE' });
    expect(started.userErrors).toEqual([expect.objectContaining({ code: 'NOT_FOUND' })]);
  });

  it("removes a finished import's file after IMPORT_FILE_RETENTION_DAYS: the import stays, its failed rows are no longer served", async () => {
    const imp = await run(['last_name,email', 'Kept,kept@example.com', ',nolast@example.com'].join('\n'), { mode: 'CREATE' });
    expect(imp).toMatchObject({ state: 'DONE', rowsCreated: 1, rowsFailed: 1 });
    const path = new URL(imp.failedRowsUrl).pathname;
    expect((await server.request('GET', path, { apiKey: key })).status).toBe(200);
    const [row] = await server.sql(`select storage_key from imports where id = ?`, [imp.databaseId]);
    const storage = documentStorage()!;
    // Within its retention: kept.
    expect(await pruneFinishedImportFiles(server.orm.em.fork(), storage, 7, 10_000)).toBe(0);
    await server.sql(`update imports set finished_at = now() - interval '8 days' where id = ?`, [imp.databaseId]);
    expect(await pruneFinishedImportFiles(server.orm.em.fork(), storage, 7, 10_000)).toBe(1);
    expect(await storage.get(row.storage_key)).toBeNull();
    expect(await server.sql(`select id from import_uploads where storage_key = ?`, [row.storage_key])).toEqual([]);
    const after = await waitFor(imp.id);
    expect(after).toMatchObject({ state: 'DONE', rowsCreated: 1, rowsFailed: 1, failedRowsUrl: null });
    expect((await server.request('GET', path, { apiKey: key })).status).toBe(404);
  });

  it('imports a file fetched from a URL through the safe fetcher: a private address is refused at start, a failed fetch fails the import', async () => {
    const served: Record<string, string> = {
      '/people.jsonl': '{"last_name":"Fetched","email":"fetched@example.com"}\n{"first_name":"NoLast"}\n',
      '/people.csv': 'Surname,Mail\nFromCsv,fromcsv@example.com\n',
      '/big.csv': `last_name\n${'x,'.repeat(15_000)}\n`,
    };
    const files: Server = createServer((req, res) => {
      if (req.url === '/to-localhost') {
        // A redirect to a host not on the allow-list (localhost is loopback): refused at that hop.
        res.writeHead(302, { Location: `http://localhost:${(files.address() as AddressInfo).port}/people.csv` }).end();
        return;
      }
      const body = served[req.url ?? ''];
      if (body === undefined) res.writeHead(404).end('no');
      else res.writeHead(200, { 'Content-Type': 'text/plain' }).end(body);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    try {
      // JSONL by the path's extension.
      const jsonl = await start({ resource: 'PEOPLE', url: `${base}/people.jsonl`, mode: 'CREATE' });
      expect(jsonl.userErrors).toEqual([]);
      const done = await waitFor(jsonl.import.id);
      expect(done).toMatchObject({ state: 'DONE', rowsTotal: 2, rowsCreated: 1, rowsFailed: 1, failure: null });
      expect(await server.sql(`select file_bytes from imports where id = ?`, [done.databaseId])).toEqual([
        { file_bytes: String(Buffer.byteLength(served['/people.jsonl'])) },
      ]);
      expect(done.errors.nodes).toEqual([{ rowNumber: 2, column: 'last_name', code: 'BLANK', message: "last_name can't be blank" }]);
      expect(await server.sql(`select email from people where account_id = ? and last_name = 'Fetched'`, [account.accountId])).toEqual([
        { email: 'fetched@example.com' },
      ]);
      // Its failed rows come from the fetched file, kept like an upload.
      const failed = await server.request('GET', done.failedRowsUrl.replace(/^https?:\/\/[^/]+/, ''), { apiKey: key });
      expect(failed.status).toBe(200);
      expect(failed.text).toBe('{"first_name":"NoLast","reason":"last_name: last_name can\'t be blank"}\n');

      // CSV, with a mapping checked against the fetched header.
      const csv = await start({
        resource: 'PEOPLE',
        url: `${base}/people.csv`,
        mode: 'CREATE',
        mapping: [
          { column: 'Surname', field: 'last_name' },
          { column: 'Mail', field: 'email' },
        ],
      });
      expect(await waitFor(csv.import.id)).toMatchObject({ state: 'DONE', rowsCreated: 1 });
      const missing = await start({ resource: 'PEOPLE', url: `${base}/people.csv`, mode: 'CREATE', mapping: [{ column: 'Nope', field: 'last_name' }] });
      expect(await waitFor(missing.import.id)).toMatchObject({ state: 'FAILED', failure: 'the file has no column "Nope" (mapping)', rowsCreated: 0 });

      // Refused at start: a private address, a non-http scheme, both a URL and an upload.
      for (const url of ['http://10.20.30.40/people.csv', 'http://[::1]/people.csv', 'ftp://example.com/people.csv']) {
        const refused = await start({ resource: 'PEOPLE', url, mode: 'CREATE' });
        expect(refused.import).toBeNull();
        expect(refused.userErrors).toEqual([expect.objectContaining({ field: ['input', 'url'], code: 'INVALID' })]);
      }
      const up = await upload('last_name\nX\n');
      const both = await start({ resource: 'PEOPLE', url: `${base}/people.csv`, uploadId: up.body.uploadId, mode: 'CREATE' });
      expect(both.userErrors).toEqual([expect.objectContaining({ field: ['input', 'uploadId'] })]);

      // Failed by the run: a 404, a redirect to a host not allowed, a file past IMPORT_MAX_BYTES.
      const cases: Array<[string, string]> = [
        ['/gone.csv', 'the file could not be fetched from its URL: HTTP 404'],
        ['/to-localhost', 'the file could not be fetched from its URL: the address is not public'],
        ['/big.csv', 'the file could not be fetched from its URL: too large (limit 0.02 MB)'],
      ];
      for (const [path, failure] of cases) {
        const started = await start({ resource: 'PEOPLE', url: `${base}${path}`, mode: 'CREATE' });
        expect(started.userErrors).toEqual([]);
        expect(await waitFor(started.import.id)).toMatchObject({ state: 'FAILED', failure, rowsProcessed: 0 });
      }
    } finally {
      await new Promise((resolve) => files.close(resolve));
    }
  });
});
