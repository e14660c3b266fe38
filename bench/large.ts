import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { allowedCpus, startChild, tasksetAvailable, type Child } from './child-process';
import { DEAL_WORDS } from './seed-deals';
import type { ServerReady, ServerStart } from './server-child';
import { positive } from './env';

/**
 * `npm run bench -- --deals 1000000` (bench/README.md, "Large account"): one account with that
 * many deals in a database of its own (`crm_bench_large`), and the latency of representative
 * filtered and sorted v3 deal lists against the real server, one request at a time. For each,
 * the SQL the server issued (counted as `npm run bench` counts it) is run again under
 * EXPLAIN (ANALYZE, BUFFERS): time, the count subquery's share (v3 `pagination.total`), the
 * indexes the plan uses and the tables it reads whole.
 */

interface Scenario {
  readonly name: string;
  readonly query: string;
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Parent Relationship'?: string;
  readonly 'Subplan Name'?: string;
  readonly 'Actual Total Time'?: number;
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  readonly 'Shared Hit Blocks'?: number;
  readonly 'Shared Read Blocks'?: number;
  readonly Plans?: PlanNode[];
}

interface Explained {
  readonly ms: number;
  readonly indexes: string[];
  readonly seqScans: string[];
  readonly buffers: { hit: number; read: number };
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const ms = (n: number | null) => (n === null ? 'n/a' : n < 10 ? n.toFixed(2) : n.toFixed(1));

async function explain(client: Client, statement: string): Promise<Explained> {
  const { rows } = await client.query(`explain (analyze, buffers, format json) ${statement}`);
  const top = rows[0]['QUERY PLAN'][0] as { Plan: PlanNode; 'Execution Time': number };
  const indexes = new Set<string>();
  const seqScans = new Set<string>();
  const walk = (node: PlanNode, context: string) => {
    // The total's `(select count(*) ...)` runs as an InitPlan, marked `(count)`; any other
    // InitPlan (e.g. a custom field condition's `array(select ...)`) runs once, marked `(once)`;
    // a correlated EXISTS that PostgreSQL could not turn into a join runs as a SubPlan for every
    // row it filters, marked `(per row)`.
    const initPlan = node['Node Type'] === 'Aggregate' ? ' (count)' : ' (once)';
    const here = node['Parent Relationship'] === 'InitPlan' ? initPlan : node['Parent Relationship'] === 'SubPlan' ? `${context} (per row)` : context;
    if (node['Index Name']) indexes.add(`${node['Index Name']} [${node['Node Type']}]${here}`);
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) seqScans.add(`${node['Relation Name']}${here}`);
    for (const child of node.Plans ?? []) walk(child, here);
  };
  walk(top.Plan, '');
  return {
    ms: top['Execution Time'],
    indexes: [...indexes],
    seqScans: [...seqScans],
    buffers: { hit: top.Plan['Shared Hit Blocks'] ?? 0, read: top.Plan['Shared Read Blocks'] ?? 0 },
  };
}

/** The list's total in the page statement (src/db/keyset.ts): `(select count(*) from ... ) as "__total"`. */
const COUNT_SUBQUERY = /\((select count\(\*\) from [\s\S]*?)\) as "__total"/;

/** Median wall time of `runs` executions of a statement on the monitor connection. */
async function timed(client: Client, statement: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await client.query(statement);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/** Indexes tried with BENCH_LARGE_TRY_INDEXES must be named bench_try_*: a run killed half-way leaves nothing the next one cannot recognise and drop. */
const TRY_PREFIX = 'bench_try_';

async function dropTried(client: Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select indexname as name from pg_indexes where schemaname = current_schema() and indexname like '${TRY_PREFIX}%'`,
  );
  for (const r of rows) await client.query(`drop index if exists "${r.name}"`);
  return rows.map((r) => r.name);
}

export async function runLarge(deals: number): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { resolveDatabase } = await import('../src/cli/database');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
  setLogLevel('error');
  const repeats = Math.round(positive('BENCH_LARGE_REQUESTS', 60));
  const warmups = Math.round(positive('BENCH_LARGE_WARMUP', 5));
  const size = { people: positive('BENCH_PEOPLE', 100_000), companies: positive('BENCH_COMPANIES', 5_000), users: 9, deals };
  const tryIndexes = (process.env.BENCH_LARGE_TRY_INDEXES ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const statement of tryIndexes) {
    if (!new RegExp(`^create index (if not exists )?"?${TRY_PREFIX}\\w+"? on `, 'i').test(statement))
      throw new Error(`BENCH_LARGE_TRY_INDEXES: each statement must be "create index ${TRY_PREFIX}<name> on ...", got: ${statement}`);
  }

  const cpus = allowedCpus() ?? [];
  const pin = process.env.BENCH_PIN !== '0' && cpus.length >= 2 && tasksetAvailable();
  const started = Date.now();
  const { url: databaseUrl, embedded } = await resolveDatabase(config, { database: 'crm_bench_large', benchmark: true });
  const monitor = new Client({ connectionString: databaseUrl });
  await monitor.connect();
  // EXPLAIN ANALYZE runs the statement: a slow one is waited for, but not forever.
  await monitor.query(`set statement_timeout = '120s'`);
  let appChild: Child | null = null;
  try {
    const leftover = await dropTried(monitor);
    if (leftover.length) say(`bench-large: dropped indexes a previous run left: ${leftover.join(', ')}`);
    appChild = startChild(join(__dirname, 'server-child.js'), pin ? cpus[cpus.length - 1] : null, { ...process.env, NODE_ENV: process.env.NODE_ENV });
    say(
      `bench-large: ${deals} deals in one account of ${new URL(databaseUrl).host}/crm_bench_large${embedded ? ' (embedded)' : ''}; seeding when the marker row says otherwise (a few minutes once)...`,
    );
    const app = await appChild.call<ServerReady>('start', { role: 'app', databaseUrl, size } satisfies ServerStart);
    const data = app.data!;
    say(
      `bench-large: ${data.dealsSeeded ? `seeded in ${(data.seedMs / 1000).toFixed(0)} s` : 'already seeded'}; app pid ${appChild.pid}${pin ? ` pinned to CPU ${appChild.cpus()}` : ' not pinned'}; ` +
        `${repeats} sequential requests per scenario after ${warmups} warm-up; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );

    // Parameters from the data: an owner and a stage, a value range of about 1% of the deals, a
    // word in about 4% of the names, the email of one person (in ~25 deals), a range of 5 of the
    // 500 values of the numeric custom field Seats (1% of the deals, spread over all three years).
    const account = data.accountId;
    const { rows: owners } = await monitor.query<{ id: number }>('select id from users where account_id = $1 and not is_admin order by id limit 1', [account]);
    const { rows: stages } = await monitor.query<{ id: number }>(`select id from deal_stages where account_id = $1 and name = 'Proposal'`, [account]);
    const { rows: persons } = await monitor.query<{ email: string }>('select email from people where account_id = $1 order by id offset 4241 limit 1', [
      account,
    ]);
    const emailPart = persons[0].email.split('@')[0] + '@';
    const { rows: seats } = await monitor.query<{ id: number }>(`select id from custom_fields where account_id = $1 and resource = 'deal' and name = 'Seats'`, [
      account,
    ]);
    const seatsLabel = `custom_label_${seats[0].id}`;
    const word = DEAL_WORDS[2];
    const scenarios: Scenario[] = [
      { name: 'owner+stage', query: `conditions[deal_owner]=${owners[0].id}&conditions[deal_stage]=${stages[0].id}` },
      { name: 'value range', query: 'conditions[deal_value][from]=10000&conditions[deal_value][to]=11000' },
      { name: 'name like', query: `conditions[deal_name]=${encodeURIComponent(word)}` },
      { name: 'person email', query: `conditions[person_email]=${encodeURIComponent(emailPart)}` },
      { name: 'sort close date', query: 'sort=deals.expected_close_date' },
      { name: 'custom range', query: `conditions[${seatsLabel}][from]=100&conditions[${seatsLabel}][to]=104` },
    ];
    const key = encodeURIComponent(data.apiKey);
    const urlOf = (s: Scenario) => `${app.url}/api/v3/deals.json?per_page=200&${s.query}&api_key=${key}`;

    const measure = async (label: string) => {
      const p50: number[] = [];
      const p99: number[] = [];
      const sqlMs: string[] = [];
      const countMs: string[] = [];
      const otherMs: string[] = [];
      const errors: number[] = [];
      for (const s of scenarios) {
        let total = -1;
        let entries = -1;
        let failures = 0;
        let warmMs = 0;
        for (let i = 0; i < warmups; i++) {
          const t0 = performance.now();
          await (await fetch(urlOf(s))).arrayBuffer();
          warmMs = Math.max(warmMs, performance.now() - t0);
        }
        // A scenario that takes seconds (or hits the statement timeout) is sampled less: the
        // point is made, and the run stays within minutes.
        const n = warmMs > 2000 ? Math.min(repeats, 5) : repeats;
        const times: number[] = [];
        let status = 200;
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const res = await fetch(urlOf(s));
          const body = (await res.json()) as { entries?: unknown[]; pagination?: { total: number }; error?: string };
          times.push(performance.now() - t0);
          if (res.status !== 200) {
            failures++;
            status = res.status;
            continue;
          }
          total = body.pagination!.total;
          entries = body.entries!.length;
        }
        times.sort((a, b) => a - b);
        p50.push(percentile(times, 50));
        p99.push(percentile(times, 99));
        // The statements of one request, each run again under EXPLAIN (ANALYZE, BUFFERS).
        await appChild!.call('record');
        await (await fetch(urlOf(s))).arrayBuffer();
        const statements = await appChild!.call<string[]>('recorded');
        say(`\n[${label}] ${s.name}: GET /api/v3/deals.json?per_page=200&${s.query}`);
        say(
          `  ${failures ? `${failures} of ${n} answered HTTP ${status} (statement timeout: DATABASE_STATEMENT_TIMEOUT_MS); ` : ''}${entries} entries of ${total} matching; ` +
            `p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms, min ${ms(times[0])} ms, max ${ms(times[times.length - 1])} ms over ${n} requests; ${statements.length} statements`,
        );
        let pageSql: Explained | null = null;
        let main: { page: number; count: number | null } | null = null;
        let countApart: number | null = null;
        let otherSql = 0;
        for (const [i, statement] of statements.entries()) {
          if (!/^\s*(select|with)\b/i.test(statement)) continue;
          const e = await explain(monitor, statement);
          const isMain = /\bfrom "deals" d\b/.test(statement) && /\blimit\b/i.test(statement) && !/^\s*select count\(\*\)/i.test(statement);
          // The total counted by a statement of its own, on a second connection while the page is read.
          const isCount = /^\s*select count\(\*\) as n from "deals" d\b/i.test(statement);
          // Times without EXPLAIN's per-node instrumentation (which inflates them): the median of
          // 5 runs, or of 1 when the statement takes seconds.
          const runs = e.ms > 2000 ? 1 : 5;
          if (isMain) {
            pageSql = e;
            const count = COUNT_SUBQUERY.exec(statement);
            main = {
              page: await timed(monitor, count ? statement.replace(count[0], 'null as "__total"') : statement, runs),
              count: count ? await timed(monitor, count[1], runs) : null,
            };
          } else if (isCount) {
            countApart = await timed(monitor, statement, runs);
          } else {
            otherSql += await timed(monitor, statement, 3);
          }
          if (!isMain && !isCount && e.ms < 1 && !process.env.BENCH_VERBOSE) continue;
          say(
            `  sql ${i + 1}${isMain ? ' (page)' : isCount ? ' (total, in parallel with the page)' : ''}: ${ms(e.ms)} ms under EXPLAIN ANALYZE${isMain && main ? `; run alone: page ${ms(main.page)} ms${main.count !== null ? `, count subquery ${ms(main.count)} ms` : ''}` : ''}${isCount ? `; run alone ${ms(countApart)} ms` : ''}; ` +
              `buffers hit ${e.buffers.hit} read ${e.buffers.read}; indexes: ${e.indexes.join(', ') || 'none'}; whole-table scans: ${e.seqScans.join(', ') || 'none'}`,
          );
          if (process.env.BENCH_VERBOSE) say(`    ${statement.replace(/\s+/g, ' ').slice(0, 1500)}`);
        }
        say(`  every other statement together: ${ms(otherSql)} ms (run alone)`);
        sqlMs.push(main ? ms(main.page) : 'n/a');
        countMs.push(ms(main?.count ?? countApart));
        if (!pageSql) say('  (no page statement recorded)');
        otherMs.push(ms(otherSql));
        errors.push(failures);
      }
      return { p50, p99, sqlMs, countMs, otherMs, errors };
    };

    const before = await measure('indexes of the migrations');
    // `errors`: requests of each scenario that did not answer 200 (their latency is in the percentiles).
    const line = (tag: string, r: { p50: number[]; p99: number[]; errors: number[] }) =>
      `${tag}: deals=${deals} p50_ms=${r.p50.map((v) => ms(v)).join(',')} p99_ms=${r.p99.map((v) => ms(v)).join(',')}${r.errors.some((e) => e > 0) ? ` errors=${r.errors.join(',')}` : ''}`;
    // The page statement run alone without its count subquery, the count subquery alone (the v3
    // total), and every other statement of the request together (medians of runs on a separate
    // connection); what p50 has beyond them is the app's own work and the transfers.
    const sqlLine = (tag: string, r: { sqlMs: string[]; countMs: string[]; otherMs: string[] }) =>
      `${tag}: page_sql_ms=${r.sqlMs.join(',')} count_ms=${r.countMs.join(',')} other_sql_ms=${r.otherMs.join(',')}`;
    const lines = [sqlLine('bench-large-sql', before), line('bench-large', before)];
    if (tryIndexes.length) {
      say(`\nbench-large: creating ${tryIndexes.length} candidate index(es), then measuring again`);
      try {
        for (const statement of tryIndexes) {
          const t0 = Date.now();
          await monitor.query(statement);
          say(`  ${statement} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        }
        await monitor.query('analyze deals');
        await monitor.query('analyze people');
        await monitor.query('analyze deal_people');
        const tried = await measure('with candidate indexes');
        lines.push(sqlLine('bench-large-tried-sql', tried), line('bench-large-tried', tried));
      } finally {
        const dropped = await dropTried(monitor);
        say(`\nbench-large: dropped ${dropped.join(', ')}`);
      }
    }
    say(
      `\nscenarios: ${scenarios.map((s, i) => `${i + 1} ${s.name}`).join(', ')}; load average at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; total ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    for (const l of lines) say(l);
  } finally {
    await appChild?.close();
    await monitor.end();
    await embedded?.stop();
  }
}
