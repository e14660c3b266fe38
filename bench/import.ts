import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { Client } from 'pg';
import { startChild, type Child } from './child-process';
import type { ServerReady, ServerStart } from './server-child';
import { positiveWhole } from './env';

/**
 * `npm run bench -- --import` (bench/README.md, "Import and export"): a CSV of BENCH_IMPORT_ROWS
 * people (default 1,000,000) with three custom fields, half of them matching people already in
 * the account by email, uploaded and imported as one upsert job; then every person of the account
 * exported as CSV. Each ends with one line: rows, seconds from start to done, rows a second, and
 * the peak RSS of the server process (which runs the job worker too), sampled while it ran, and
 * its heap after a full collection once the job ended (what it holds, whatever the file size).
 *
 * It runs on a database of its own (`crm_bench_import`), dropped at the start and at the end: a
 * million people do not belong in the read bench's data.
 */

const DATABASE = 'crm_bench_import';

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

interface JobState {
  readonly state: string;
  readonly failure: string | null;
  readonly [count: string]: unknown;
}

const FINAL = new Set(['DONE', 'FAILED', 'CANCELLED']);

export async function runImport(): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { resolveDatabase } = await import('../src/cli/database');
  const rows = positiveWhole('BENCH_IMPORT_ROWS', 1_000_000);
  const existing = Math.floor(rows / 2);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
  setLogLevel('error');
  const { url: databaseUrl, embedded } = await resolveDatabase(config, { database: DATABASE, benchmark: true });
  const dropDatabase = async () => {
    const admin = new Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${DATABASE} with (force)`);
    } finally {
      await admin.end();
    }
  };
  await dropDatabase();
  // Created again, empty; the server's start runs the migrations.
  await resolveDatabase(config, { database: DATABASE, benchmark: true });

  const folder = await mkdtemp(join(tmpdir(), 'crm-bench-import-'));
  let app: Child | null = null;
  const monitor = new Client({ connectionString: databaseUrl });
  try {
    app = startChild(join(__dirname, 'server-child.js'), null, { ...process.env, NODE_ENV: process.env.NODE_ENV });
    const server = await app.call<ServerReady>('start', { role: 'app', databaseUrl } satisfies ServerStart);
    await monitor.connect();
    const { openOrm } = await import('../src/app/orm');
    const { AccountAdmin } = await import('../src/modules/accounts/account.service');
    const orm = await openOrm({ clientUrl: databaseUrl, statementTimeoutMs: config.statementTimeoutMs });
    const created = await new AccountAdmin(orm.em.fork()).createAccount({
      name: 'Bench import (bench/import.ts)',
      admin: { email: 'admin@import.bench.example', firstName: 'Bench', lastName: 'Admin' },
    });
    await orm.close(true);
    const accountId = created.account.id;
    const adminId = created.user.id;

    const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${created.apiKey}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
      if (res.status !== 200 || body.errors) throw new Error(`${res.status} ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
      return body.data!;
    };

    // Three custom fields of people: text, numeric and date.
    const labels: string[] = [];
    for (const [name, kind] of [
      ['Source system', 'TEXT'],
      ['Lifetime value', 'NUMERIC'],
      ['First contact', 'DATE'],
    ] as const) {
      const out = await graphql(
        'mutation($input: CustomFieldLabelCreateInput!) { createCustomFieldLabel(input: $input) { customFieldLabel { databaseId } userErrors { message } } }',
        { input: { resource: 'PERSON', name, kind } },
      );
      if (!out.createCustomFieldLabel.customFieldLabel) throw new Error(JSON.stringify(out.createCustomFieldLabel.userErrors));
      labels.push(`custom_label_${out.createCustomFieldLabel.customFieldLabel.databaseId}`);
    }

    // The half that matches: people already there, written straight into the table (no change rows).
    const seedStarted = Date.now();
    await monitor.query('begin');
    await monitor.query(`set local session_replication_role = replica`);
    await monitor.query(
      `insert into people (account_id, owner_id, last_name, first_name, email, created_at, updated_at)
       select $1, $2, 'Before', 'Seeded', 'import-' || i || '@bench.example', now(), now() from generate_series(0, $3::int - 1) i`,
      [accountId, adminId, existing],
    );
    await monitor.query('commit');
    await monitor.query('vacuum analyze people');
    say(
      `bench-import: ${existing} people already in the account (seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s); db ${embedded ? 'embedded' : new URL(databaseUrl).host}/${DATABASE}`,
    );

    // The file: rows 0 … existing-1 update those people (new names and custom fields), the rest are new.
    const file = join(folder, 'people.csv');
    const out = createWriteStream(file);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    await write(['first_name', 'last_name', 'email', 'position', ...labels].join(',') + '\n');
    for (let i = 0; i < rows; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      await write(`Imported,"Person ${i}",import-${i}@bench.example,"Buyer, level ${i % 7}",crm-${i % 13},${(i % 10_000) + 0.5},2025-03-${day}\n`);
    }
    out.end();
    await once(out, 'finish');
    const bytes = (await stat(file)).size;

    const uploadStarted = Date.now();
    const upload = await fetch(`${server.url}/api/imports/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${created.apiKey}` },
      body: Readable.toWeb(createReadStream(file)) as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const uploaded = (await upload.json()) as { uploadId?: string; error?: string };
    if (upload.status !== 201 || !uploaded.uploadId) throw new Error(`upload answered ${upload.status} ${JSON.stringify(uploaded)}`);
    say(`bench-import: uploaded ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - uploadStarted) / 1000).toFixed(1)} s`);

    /** Polls a job until it ends, sampling the server's RSS: its final state, seconds and peak RSS in MB. */
    const follow = async (name: string, read: () => Promise<JobState>, started: number) => {
      let peak = 0;
      let last: JobState;
      let said = 0;
      for (;;) {
        const memory = await app!.call<NodeJS.MemoryUsage>('memory');
        peak = Math.max(peak, memory.rss);
        last = await read();
        if (FINAL.has(last.state)) break;
        if (Date.now() - said > 5000) {
          said = Date.now();
          const mb = (n: number) => Math.round(n / 1024 / 1024);
          say(`  ${name} ${((Date.now() - started) / 1000).toFixed(0)} s (rss ${mb(memory.rss)} MB, heap ${mb(memory.heapUsed)} MB): ${JSON.stringify(last)}`);
        }
        await sleep(200);
      }
      const seconds = (Date.now() - started) / 1000;
      const heapAfterGc = await app!.call<number>('heap-after-gc');
      return { last, seconds, peakMb: peak / 1024 / 1024, heapAfterGcMb: heapAfterGc / 1024 / 1024 };
    };

    const importStarted = Date.now();
    const start = await graphql(
      `
        mutation ($input: StartImportInput!) {
          startImport(input: $input) {
            import {
              id
            }
            userErrors {
              field
              message
            }
          }
        }
      `,
      { input: { resource: 'PEOPLE', uploadId: uploaded.uploadId, mode: 'UPSERT', matchBy: 'EMAIL' } },
    );
    if (!start.startImport.import) throw new Error(`startImport: ${JSON.stringify(start.startImport.userErrors)}`);
    const importId = start.startImport.import.id as string;
    const imported = await follow(
      'import',
      async () =>
        (
          await graphql(
            'query($id: ID!) { import(id: $id) { state failure rowsProcessed rowsCreated rowsUpdated rowsUnchanged rowsFailed estimatedSecondsLeft } }',
            { id: importId },
          )
        ).import,
      importStarted,
    );
    say(`bench-import: ${JSON.stringify(imported.last)}`);
    if (imported.last.state !== 'DONE') throw new Error(`the import ended ${imported.last.state}: ${imported.last.failure}`);
    const people = Number((await monitor.query<{ n: string }>('select count(*) as n from people where account_id = $1', [accountId])).rows[0].n);
    if (people !== Math.max(rows, existing)) throw new Error(`the account holds ${people} people after the import, not ${Math.max(rows, existing)}`);
    say(
      `bench-import: rows=${rows} seconds=${imported.seconds.toFixed(1)} rows_per_s=${(rows / imported.seconds).toFixed(0)} peak_rss_mb=${imported.peakMb.toFixed(0)} heap_after_gc_mb=${imported.heapAfterGcMb.toFixed(0)}`,
    );

    const exportStarted = Date.now();
    const exportStart = await graphql(
      `
        mutation ($input: StartExportInput!) {
          startExport(input: $input) {
            export {
              id
            }
            userErrors {
              field
              message
            }
          }
        }
      `,
      { input: { resource: 'PEOPLE', format: 'CSV' } },
    );
    if (!exportStart.startExport.export) throw new Error(`startExport: ${JSON.stringify(exportStart.startExport.userErrors)}`);
    const exportId = exportStart.startExport.export.id as string;
    const exported = await follow(
      'export',
      async () => (await graphql('query($id: ID!) { export(id: $id) { state failure rowsExported rowsTotal downloadUrl } }', { id: exportId })).export,
      exportStarted,
    );
    if (exported.last.state !== 'DONE') throw new Error(`the export ended ${exported.last.state}: ${exported.last.failure}`);
    // Read back to be sure of what was measured: one header and a line per person (no field of the file breaks a line).
    const download = await fetch(String(exported.last.downloadUrl));
    let lines = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) for (const byte of chunk) if (byte === 10) lines++;
    if (lines !== people + 1) throw new Error(`the export file has ${lines} lines, not ${people + 1}`);
    say(
      `bench-export: rows=${people} seconds=${exported.seconds.toFixed(1)} rows_per_s=${(people / exported.seconds).toFixed(0)} peak_rss_mb=${exported.peakMb.toFixed(0)} heap_after_gc_mb=${exported.heapAfterGcMb.toFixed(0)}`,
    );
  } finally {
    if (app) await app.close();
    await monitor.end().catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
    await dropDatabase().catch(() => undefined);
  }
}
