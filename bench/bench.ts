import 'reflect-metadata';
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, join } from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode } from 'graphql';
import { Client } from 'pg';

/**
 * `npm run bench` (bench/README.md). The app and the raw baseline run in this process, one after
 * the other under load; the load generator (autocannon) runs in a child process so it neither
 * shares the servers' event loop nor inflates their RSS.
 */

const LOAD_FLAG = '--load';

// ---------------------------------------------------------------------------------------------
// SQL statement counting: every statement of every driver copy goes through pg's Client#query
// (knex, under MikroORM, calls it once per statement; so does pg.Pool). Wrapping the prototype
// before anything connects counts what really reaches PostgreSQL, whoever sends it.
// ---------------------------------------------------------------------------------------------

interface StatementLog {
  recording: boolean;
  statements: string[];
}

const statementLog: StatementLog = { recording: false, statements: [] };

function pgCopies(): string[] {
  const seen = new Set<string>();
  const from = ['.', 'knex', '@mikro-orm/knex', '@mikro-orm/postgresql'];
  for (const origin of from) {
    try {
      const base = origin === '.' ? __dirname : dirname(require.resolve(`${origin}/package.json`));
      seen.add(require.resolve('pg', { paths: [base] }));
    } catch {
      // That package is not installed: nothing of it to wrap.
    }
  }
  return [...seen];
}

function installStatementCounter(): number {
  const copies = pgCopies();
  for (const path of copies) {
    const proto = require(path).Client.prototype as { query: (...args: unknown[]) => unknown; __benchWrapped?: boolean };
    if (proto.__benchWrapped) continue;
    const original = proto.query;
    proto.query = function countedQuery(this: unknown, ...args: unknown[]) {
      if (statementLog.recording) {
        const first = args[0] as string | { text?: string } | undefined;
        statementLog.statements.push(typeof first === 'string' ? first : String(first?.text ?? '<submittable>'));
      }
      return original.apply(this, args);
    };
    proto.__benchWrapped = true;
  }
  return copies.length;
}

async function countStatements(run: () => Promise<unknown>): Promise<string[]> {
  statementLog.statements = [];
  statementLog.recording = true;
  try {
    await run();
  } finally {
    statementLog.recording = false;
  }
  return statementLog.statements;
}

// ---------------------------------------------------------------------------------------------
// Load generation (child process).
// ---------------------------------------------------------------------------------------------

interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

interface LoadSpec {
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  readonly seconds: number;
  readonly connections: number;
}

interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly mbPerSec: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function loadChild(): Promise<void> {
  process.once('message', async (spec: LoadSpec) => {
    const { default: autocannon } = await import('autocannon');
    const result = await autocannon({
      url: spec.url,
      connections: spec.connections,
      duration: spec.seconds,
      requests: spec.requests.map((r) => ({ ...r })),
    });
    const out: LoadResult = {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      mbPerSec: result.throughput.average / 1_048_576,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
    process.send!(out, () => process.exit(0));
  });
}

function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // execArgv []: a `node --cpu-prof` run profiles the servers, not the load generator.
    const child = fork(__filename, [LOAD_FLAG], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | null = null;
    child.once('message', (m) => (result = m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`load generator exited with ${code}`))));
    child.send(spec);
  });
}

// ---------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

/** The operation and the fragments it uses (transitively), from the facade's own .graphql files. */
function operationDocument(source: string, name: string): string {
  const doc = parse(source, { noLocation: true });
  const fragments = new Map<string, DefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!op) throw new Error(`No operation ${name}`);
  const needed: DefinitionNode[] = [op];
  const wanted = new Set<string>();
  for (let i = 0; i < needed.length; i++) {
    visit(needed[i], {
      FragmentSpread(node) {
        if (wanted.has(node.name.value)) return;
        wanted.add(node.name.value);
        needed.push(fragments.get(node.name.value)!);
      },
    });
  }
  return needed.map((d) => print(d)).join('\n');
}

/**
 * Paths where two JSON values differ (array indexes folded to `[]`, one example each): the
 * baseline must answer what the facade answers, or the ratio compares different work.
 */
function differences(a: unknown, b: unknown, out = new Map<string, string>(), path = '$'): Map<string, string> {
  if (a === b) return out;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    if (!out.has(path)) out.set(path, `${JSON.stringify(a)?.slice(0, 60)} (facade) vs ${JSON.stringify(b)?.slice(0, 60)} (raw)`);
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], out, Array.isArray(a) ? `${path}[]` : `${path}.${k}`);
  }
  return out;
}

/**
 * autocannon stops sending at the deadline but the servers keep working on what is in flight
 * (a list query can take a second under load). The next run starts only once PostgreSQL has no
 * active statement of this database and the event loop had a moment to drain.
 */
async function quiesce(client: { query(sql: string): Promise<{ rows: Array<{ n: string }> }> }): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { rows } = await client.query(`select count(*) as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`);
    if (Number(rows[0].n) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 300));
}

async function fetchJson(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface Scenario {
  readonly name: string;
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  /** One request, to check the answer and count its SQL. */
  readonly probe: () => Promise<{ status: number; body: any }>;
}

/**
 * BENCH_PROFILE_DIR: a CPU profile of this process (both servers) per measured run only, without
 * boot, seeding or warm-up; open it in Chrome DevTools or summarise it (bench/README.md).
 */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

async function main(): Promise<void> {
  const wrappedCopies = installStatementCounter();
  process.env.NODE_ENV ??= 'production';
  // Loaded after the counter: nothing may open a connection before it is in place.
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { startServer } = await import('../src/server');
  const { resolveDatabase } = await import('../src/cli/database');
  const { operationsSource } = await import('../rest-facade');
  const { ensureSeeded } = await import('./seed');
  const { startRawBaseline } = await import('./raw-baseline');

  const seconds = positive('BENCH_SECONDS', 8);
  const warmup = positive('BENCH_WARMUP_SECONDS', 2);
  const connections = positive('BENCH_CONNECTIONS', 10);
  const size = { people: positive('BENCH_PEOPLE', 100_000), companies: positive('BENCH_COMPANIES', 5_000), users: 9 };
  const profileDir = process.env.BENCH_PROFILE_DIR || null;
  const only = process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim()).filter(Boolean);
  const limit = '1000000000';
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_SECOND: limit,
    RATE_LIMIT_BURST: limit,
    APP_RATE_LIMIT_PER_SECOND: limit,
    APP_RATE_LIMIT_BURST: limit,
  });
  setLogLevel('error');

  const started = Date.now();
  const { url: databaseUrl, embedded } = await resolveDatabase(config, { database: 'crm_bench' });
  const server = await startServer(config, databaseUrl, { port: 0, host: '127.0.0.1' });
  const raw = await startRawBaseline(databaseUrl);
  try {
    const data = await ensureSeeded(server.orm, databaseUrl, size);
    const rssIdle = process.memoryUsage().rss;
    process.stdout.write(
      `bench: ${size.people} people, ${size.companies} companies, ${size.users + 1} users (${data.seeded ? `seeded in ${(data.seedMs / 1000).toFixed(1)} s` : 'already seeded'}); ` +
        `db ${embedded ? 'embedded' : new URL(databaseUrl).host}/crm_bench; ${seconds} s per scenario after ${warmup} s warm-up, ${connections} connections\n`,
    );

    const key = encodeURIComponent(data.apiKey);
    const source = operationsSource();
    const gql = (op: string, variables: Record<string, unknown>) => JSON.stringify({ query: operationDocument(source, op), operationName: op, variables });
    const gqlHeaders = { 'content-type': 'application/json', authorization: `Bearer ${data.apiKey}` };
    const listPath = `/api/v3/people.json?per_page=100&api_key=${key}`;
    const showPaths = data.sampleIds.map((id) => `/api/v3/people/${id}.json?api_key=${key}`);
    const post = (base: string, body: string) => () => fetchJson(`${base}/graphql`, { method: 'POST', headers: gqlHeaders, body });
    const listBody = gql('ListPeople', { page: { page: 1, perPage: 100 } });

    const scenarios: Scenario[] = [
      { name: 'rest_list', url: server.url, requests: [{ method: 'GET', path: listPath }], probe: () => fetchJson(server.url + listPath) },
      { name: 'graphql_list', url: server.url, requests: [{ method: 'POST', path: '/graphql', headers: gqlHeaders, body: listBody }], probe: post(server.url, listBody) },
      { name: 'raw_list', url: raw.url, requests: [{ method: 'GET', path: listPath }], probe: () => fetchJson(raw.url + listPath) },
      { name: 'rest_show', url: server.url, requests: showPaths.map((path) => ({ method: 'GET', path })), probe: () => fetchJson(server.url + showPaths[0]) },
      {
        name: 'graphql_show',
        url: server.url,
        requests: data.sampleIds.map((id) => ({ method: 'POST', path: '/graphql', headers: gqlHeaders, body: gql('ShowPerson', { id }) })),
        probe: post(server.url, gql('ShowPerson', { id: data.sampleIds[0] })),
      },
      { name: 'raw_show', url: raw.url, requests: showPaths.map((path) => ({ method: 'GET', path })), probe: () => fetchJson(raw.url + showPaths[0]) },
    ];

    // Correctness first: the baseline must produce the facade's exact JSON, or the ratio means nothing.
    const [restList, rawList, restShow, rawShow, gqlList] = await Promise.all([scenarios[0].probe(), scenarios[2].probe(), scenarios[3].probe(), scenarios[5].probe(), scenarios[1].probe()]);
    if (restList.status !== 200 || rawList.status !== 200 || gqlList.status !== 200 || gqlList.body.errors) {
      throw new Error(`probe failed: rest ${restList.status}, raw ${rawList.status}, graphql ${gqlList.status} ${JSON.stringify(gqlList.body?.errors ?? '').slice(0, 300)}`);
    }
    if (restList.body.entries.length !== 100) throw new Error(`REST list returned ${restList.body.entries.length} entries, expected 100`);
    const diffs = differences(restList.body, rawList.body, differences(restShow.body, rawShow.body));
    process.stdout.write(
      diffs.size === 0
        ? 'check: raw baseline JSON identical to the facade (list and show)\n'
        : `check: raw baseline JSON differs from the facade's at ${diffs.size} path(s):\n${[...diffs].map(([p, d]) => `  ${p}: ${d}`).join('\n')}\n`,
    );

    // SQL per request, counted after a warm request (pool connections exist, nothing is lazy any more).
    const sql = new Map<string, number>();
    const sqlText = new Map<string, string[]>();
    for (const s of scenarios) {
      if (only && !only.includes(s.name)) continue;
      await s.probe();
      const statements = await countStatements(s.probe);
      sql.set(s.name, statements.length);
      sqlText.set(s.name, statements);
    }
    if (process.env.BENCH_VERBOSE) {
      for (const [name, statements] of sqlText) {
        process.stdout.write(`sql ${name}:\n${statements.map((t) => `  ${t.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}\n`);
      }
    }

    const results = new Map<string, LoadResult>();
    const monitor = new Client({ connectionString: databaseUrl });
    await monitor.connect();
    try {
      for (const s of scenarios) {
        if (only && !only.includes(s.name)) continue;
        await quiesce(monitor);
        await runLoad({ url: s.url, requests: s.requests, seconds: warmup, connections });
        await quiesce(monitor);
        const stopProfile = profileDir ? await startProfile() : null;
        results.set(s.name, await runLoad({ url: s.url, requests: s.requests, seconds, connections }));
        if (stopProfile) await stopProfile(join(profileDir!, `${s.name}.cpuprofile`));
      }
    } finally {
      await monitor.end();
    }
    const rssAfter = process.memoryUsage();

    const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'requests', 'non-2xx', 'sql/req'];
    const rows = [...results].map(([name, r]) => [name, r.rps.toFixed(0), String(r.p50), String(r.p99), r.mbPerSec.toFixed(1), String(r.total), String(r.non2xx + r.errors), String(sql.get(name) ?? '?')]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    process.stdout.write(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n\n`);
    const ratio = (a: string, b: string) => (results.has(a) && results.has(b) ? (results.get(a)!.rps / results.get(b)!.rps).toFixed(2) : 'n/a');
    process.stdout.write(`ratios: rest/raw list ${ratio('rest_list', 'raw_list')}, graphql/raw list ${ratio('graphql_list', 'raw_list')}, rest/raw show ${ratio('rest_show', 'raw_show')}, graphql/raw show ${ratio('graphql_show', 'raw_show')}\n`);
    process.stdout.write(
      `memory: rss ${mb(rssAfter.rss)} after the run (${mb(rssIdle)} before load; app + raw baseline in one process), heap used ${mb(rssAfter.heapUsed)}; ` +
        `statements counted through ${wrappedCopies} pg driver cop${wrappedCopies === 1 ? 'y' : 'ies'}; total ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
    const failed = [...results].filter(([, r]) => r.non2xx + r.errors > 0).map(([n]) => n);
    if (failed.length) process.stdout.write(`warning: non-2xx answers or errors in ${failed.join(', ')}\n`);
    const rest = results.get('rest_list');
    const rawRps = results.get('raw_list');
    process.stdout.write(
      `bench: rest_list_rps=${rest ? Math.round(rest.rps) : 0} raw_list_rps=${rawRps ? Math.round(rawRps.rps) : 0} ratio=${ratio('rest_list', 'raw_list')} sql_per_list=${sql.get('rest_list') ?? 0}\n`,
    );
  } finally {
    await raw.close();
    await server.close();
    await embedded?.stop();
  }
}

if (process.argv[2] === LOAD_FLAG) {
  void loadChild();
} else {
  main().catch((error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
