import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { allowedCpus, startChild, tasksetAvailable, type Child } from './child-process';
import { roundOrder, spread } from './rounds';
import type { ServerReady, ServerStart } from './server-child';
import { positive } from './env';

/**
 * `npm run bench -- --upsert` (bench/README.md, "Upsert"): people written one at a time
 * (`createPerson`) against people written in batches of 100 (`upsertPeople`, half of each batch
 * new people, half updates of people an earlier batch wrote), in interleaved rounds, both as rows
 * written a second. The people it writes (last name `Upsertbench`) are removed at the start and at
 * the end: the seed check counts the bench account's people exactly.
 */

const MARKER = 'Upsertbench';
const BATCH = 100;

const say = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const CREATE = 'mutation($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } userErrors { message } } }';
const UPSERT = 'mutation($inputs: [PersonCreateInput!]!) { upsertPeople(inputs: $inputs, matchBy: EMAIL) { results { status userErrors { message } } } }';

type Arm = 'create' | 'upsert';

interface ArmResult {
  readonly rowsPerS: number;
  readonly rows: number;
  readonly failed: number;
}

export async function runUpsert(): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { resolveDatabase } = await import('../src/cli/database');
  const { ACCOUNT_NAME } = await import('./seed');
  const rounds = Math.round(positive('BENCH_ROUNDS', 9));
  const roundSeconds = positive('BENCH_ROUND_SECONDS', 3);
  const warmup = positive('BENCH_WARMUP_SECONDS', 5);
  const connections = Math.round(positive('BENCH_CONNECTIONS', 10));
  const size = { people: positive('BENCH_PEOPLE', 100_000), companies: positive('BENCH_COMPANIES', 5_000), users: 9, deals: positive('BENCH_DEALS', 1_000) };
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
  setLogLevel('error');
  const cpus = allowedCpus() ?? [];
  const pin = process.env.BENCH_PIN !== '0' && cpus.length >= 2 && tasksetAvailable();
  const serverCpu = pin ? cpus[cpus.length - 1] : null;
  const started = Date.now();
  const loadAtStart = loadNow();
  const { url: databaseUrl, embedded } = await resolveDatabase(config, { database: 'crm_bench', benchmark: true });
  const monitor = new Client({ connectionString: databaseUrl });
  await monitor.connect();

  /** The people this mode wrote (an interrupted run's too). */
  const cleanUp = async (): Promise<number> => {
    const { rows } = await monitor.query<{ ready: boolean }>(`select to_regclass('accounts') is not null and to_regclass('people') is not null as ready`);
    if (!rows[0].ready) return 0;
    const accounts = (await monitor.query<{ id: number }>('select id from accounts where name = $1', [ACCOUNT_NAME])).rows.map((r) => r.id);
    if (accounts.length === 0) return 0;
    const people = await monitor.query('delete from people where account_id = any($1::int[]) and last_name = $2', [accounts, MARKER]);
    if ((people.rowCount ?? 0) > 0) await monitor.query('vacuum analyze people');
    return people.rowCount ?? 0;
  };
  /** Until PostgreSQL has no active client statement in this database, then a moment more. At most 30 s. */
  const quiesce = async () => {
    for (let i = 0; i < 300; i++) {
      const { rows } = await monitor.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      if (Number(rows[0].n) === 0) break;
      await sleep(100);
    }
    await sleep(300);
  };

  let appChild: Child | null = null;
  try {
    const left = await cleanUp();
    if (left) say(`bench-upsert: removed ${left} people an earlier run left`);
    appChild = startChild(join(__dirname, 'server-child.js'), serverCpu, { ...process.env, NODE_ENV: process.env.NODE_ENV });
    const app = await appChild.call<ServerReady>('start', { role: 'app', databaseUrl, size } satisfies ServerStart);
    const data = app.data!;
    say(
      `bench-upsert: ${size.people} people (${data.seeded ? `seeded in ${(data.seedMs / 1000).toFixed(1)} s` : 'already seeded'}); db ${embedded ? 'embedded' : new URL(databaseUrl).host}/crm_bench; ` +
        `createPerson one a request against upsertPeople ${BATCH} a request (half new, half updates); ${rounds} interleaved rounds of ${roundSeconds} s per arm after ${warmup} s warm-up each; ` +
        `${connections} concurrent clients from the orchestrator; app ${pin ? `on CPU ${serverCpu}` : 'not pinned'}`,
    );
    say(`load average at start: ${loadAtStart}`);

    const post = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${data.apiKey}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
      if (res.status !== 200 || body.errors) throw new Error(`${res.status} ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
      return body.data!;
    };

    let serial = 0;
    /** Per client, the emails its batches wrote, so that its updates never wait on another client's rows. */
    const written: string[][] = Array.from({ length: connections }, () => []);
    let firstError: string | null = null;
    const person = (email: string, position: string) => ({ lastName: MARKER, firstName: 'Bench', email, position });

    /** One client's work until `end`: rows written and failed. */
    const client = async (arm: Arm, index: number, end: number) => {
      let rows = 0;
      let failed = 0;
      const mine = written[index];
      while (Date.now() < end) {
        try {
          if (arm === 'create') {
            const email = `upsertbench-${process.pid}-${serial++}@example.test`;
            const out = await post(CREATE, { input: person(email, 'created') });
            if (out.createPerson.person) {
              rows++;
              mine.push(email);
            } else failed++;
          } else {
            const updates = mine.length >= BATCH / 2 ? mine.slice(-BATCH / 2) : [];
            const fresh = Array.from({ length: BATCH - updates.length }, () => `upsertbench-${process.pid}-${serial++}@example.test`);
            const stamp = `batch-${serial}`;
            const out = await post(UPSERT, { inputs: [...updates, ...fresh].map((email) => person(email, stamp)) });
            const results = out.upsertPeople.results as Array<{ status: string }>;
            rows += results.filter((r) => r.status !== 'FAILED').length;
            failed += results.filter((r) => r.status === 'FAILED').length;
            // The next batch updates the newest of these (a sliding window over what this client wrote).
            mine.push(...fresh);
          }
        } catch (error) {
          failed++;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
      return { rows, failed };
    };
    const measure = async (arm: Arm, secs: number): Promise<ArmResult> => {
      await quiesce();
      const start = Date.now();
      const end = start + secs * 1000;
      const done = await Promise.all(Array.from({ length: connections }, (_, i) => client(arm, i, end)));
      const elapsed = (Date.now() - start) / 1000;
      const rows = done.reduce((n, d) => n + d.rows, 0);
      return { rowsPerS: rows / elapsed, rows, failed: done.reduce((n, d) => n + d.failed, 0) };
    };
    const describe = (arm: Arm, r: ArmResult) => `${arm} ${r.rowsPerS.toFixed(0)} rows/s (${r.rows} rows${r.failed ? `, ${r.failed} failed` : ''})`;

    const arms: Arm[] = ['create', 'upsert'];
    for (const arm of arms) say(`warm-up ${describe(arm, await measure(arm, warmup))}`);
    const results = new Map<Arm, ArmResult[]>(arms.map((a) => [a, []]));
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const got = new Map<Arm, ArmResult>();
      for (const arm of roundOrder(arms, r)) {
        const res = await measure(arm, roundSeconds);
        got.set(arm, res);
        results.get(arm)!.push(res);
      }
      const ratio = got.get('upsert')!.rowsPerS / got.get('create')!.rowsPerS;
      ratios.push(ratio);
      say(
        `round ${r + 1}/${rounds}: ${roundOrder(arms, r)
          .map((a) => describe(a, got.get(a)!))
          .join('  ')}  upsert/create ${fixed(ratio)}`,
      );
    }
    if (firstError) say(`first error: ${firstError}`);
    const rate = (arm: Arm) => spread(results.get(arm)!.map((x) => x.rowsPerS));
    const ratio = spread(ratios);
    const removed = await cleanUp();
    say(`removed the ${removed} people this run wrote; load average at end: ${loadNow()}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
    say(
      `bench-upsert: create_rows_per_s=${rate('create').median.toFixed(0)} upsert_rows_per_s=${rate('upsert').median.toFixed(0)} ` +
        `upsert_create_ratio=${fixed(ratio.median)} upsert_create_ratio_range=${fixed(ratio.min)}-${fixed(ratio.max)} rounds=${rounds} round_s=${roundSeconds} ` +
        `load1_start=${loadAtStart.split(' ')[0]} load1_end=${loadNow().split(' ')[0]}`,
    );
  } finally {
    if (appChild) await appChild.close();
    await monitor.end();
  }
}
