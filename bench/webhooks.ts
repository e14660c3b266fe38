import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { allowedCpus, startChild, tasksetAvailable, type Child } from './child-process';
import type { LoadResult, LoadSpec, PacedResult, PacedRun, PacedSpec } from './load-child';
import type { Arrival } from './receiver-child';
import { roundOrder, spread } from './rounds';
import type { ServerReady, ServerStart, ServerUsage } from './server-child';
import { positive } from './env';

/**
 * `npm run bench -- --webhooks` (bench/README.md, "Webhooks"): webhook delivery against the real
 * app (API and worker in one process, as the bench runs it) and a local receiver.
 *
 * 1. Lag: three endpoints of the bench account subscribed to person creates, v3 person creates at
 *    a steady rate (open loop, 200/s), and for every delivery the time from the create's response
 *    to the delivery's arrival at the receiver.
 * 2. Write overhead: interleaved rounds of v3 person creates (autocannon, as fast as they go) with
 *    the three endpoints subscribed and with none (deleted); the ratio of req/s.
 */

/** Endpoints subscribed during the lag phase and the "three" rounds (issue 24 §4). */
const ENDPOINTS = 3;
/** The last name of every person this mode creates: removed at the end (and at the start, after an interrupted run). */
const MARKER = 'Webhookbench';
const DESCRIPTION = 'npm run bench -- --webhooks';

const say = (line: string) => process.stdout.write(`${line}\n`);
const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ms = (n: number) => (!Number.isFinite(n) ? 'n/a' : Math.abs(n) < 100 ? n.toFixed(1) : n.toFixed(0));
/** A lag: an infinite one is a delivery that had not come by the timeout. */
const lagMs = (n: number, timeoutMs: number) => (n === Infinity ? `>${timeoutMs}` : ms(n));
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * Until PostgreSQL has no active client statement in this database (the requests and the worker's
 * jobs are done), then a moment more for the event loops. At most 30 s.
 */
async function quiesce(client: Client): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity where datname = current_database() and state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    if (Number(rows[0].n) === 0) break;
    await sleep(100);
  }
  await sleep(300);
}

/** Sorted copy. */
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);

interface Endpoint {
  readonly id: number;
  readonly secret: string;
  readonly path: string;
}

export async function runWebhooks(): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { resolveDatabase } = await import('../src/cli/database');
  const { ACCOUNT_NAME } = await import('./seed');
  const rate = positive('BENCH_WEBHOOKS_RATE', 200);
  const seconds = positive('BENCH_WEBHOOKS_SECONDS', 25);
  const warmSeconds = positive('BENCH_WEBHOOKS_WARMUP', 3);
  const timeoutMs = positive('BENCH_WEBHOOKS_TIMEOUT', 120) * 1000;
  const maxInFlight = Math.round(positive('BENCH_WEBHOOKS_IN_FLIGHT', 32));
  const writer = process.env.BENCH_WEBHOOKS_WRITER || 'v3';
  if (writer !== 'v3' && writer !== 'sql') throw new Error(`BENCH_WEBHOOKS_WRITER must be v3 or sql, got "${writer}"`);
  const rounds = Math.round(positive('BENCH_ROUNDS', 9));
  const roundSeconds = positive('BENCH_ROUND_SECONDS', 3);
  const warmup = positive('BENCH_WARMUP_SECONDS', 5);
  const connections = Math.round(positive('BENCH_CONNECTIONS', 10));
  const size = { people: positive('BENCH_PEOPLE', 100_000), companies: positive('BENCH_COMPANIES', 5_000), users: 9, deals: positive('BENCH_DEALS', 1_000) };
  // The receiver is on loopback: the app's fetcher refuses private addresses unless allowed.
  const allowedHosts = [...(process.env.DOCUMENT_FETCH_ALLOWED_HOSTS ?? '').split(','), '127.0.0.1']
    .map((h) => h.trim())
    .filter(Boolean)
    .join(',');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error', DOCUMENT_FETCH_ALLOWED_HOSTS: allowedHosts });
  setLogLevel('error');

  // As `npm run bench`: the load generator (and here the receiver) on the first allowed CPU, the app on the last.
  const cpus = allowedCpus() ?? [];
  const pin = process.env.BENCH_PIN !== '0' && cpus.length >= 2 && tasksetAvailable();
  const loadCpu = pin ? cpus[0] : null;
  const serverCpu = pin ? cpus[cpus.length - 1] : null;
  // BENCH_WEBHOOKS_WORKER=separate: the jobs in a process of their own (API processes with
  // RUN_WORKER=false and `npm run worker`, as a deployment may run them), on the load generator's CPU.
  const workerMode = process.env.BENCH_WEBHOOKS_WORKER || 'in-app';
  if (workerMode !== 'in-app' && workerMode !== 'separate') throw new Error(`BENCH_WEBHOOKS_WORKER must be in-app or separate, got "${workerMode}"`);
  const separateWorker = workerMode === 'separate';
  const workerCpu = loadCpu;
  const started = Date.now();
  const loadAtStart = loadNow();
  const { url: databaseUrl, embedded } = await resolveDatabase(config, { database: 'crm_bench', benchmark: true });
  const monitor = new Client({ connectionString: databaseUrl });
  await monitor.connect();

  /**
   * What an interrupted run may have left: the bench account's endpoints, and the people this
   * mode created (the seed check counts the account's people exactly: extra ones would make the
   * app reseed the whole account). On a fresh database there is nothing yet.
   */
  const cleanUp = async () => {
    const { rows } = await monitor.query<{ ready: boolean }>(
      `select to_regclass('accounts') is not null and to_regclass('people') is not null and to_regclass('webhook_endpoints') is not null as ready`,
    );
    if (!rows[0].ready) return { endpoints: 0, people: 0 };
    const accounts = (await monitor.query<{ id: number }>('select id from accounts where name = $1', [ACCOUNT_NAME])).rows.map((r) => r.id);
    if (accounts.length === 0) return { endpoints: 0, people: 0 };
    const endpoints = await monitor.query('delete from webhook_endpoints where account_id = any($1::int[])', [accounts]);
    const people = await monitor.query('delete from people where account_id = any($1::int[]) and last_name = $2', [accounts, MARKER]);
    if ((people.rowCount ?? 0) > 0) await monitor.query('vacuum analyze people');
    return { endpoints: endpoints.rowCount ?? 0, people: people.rowCount ?? 0 };
  };

  const env = { ...process.env, NODE_ENV: process.env.NODE_ENV, DOCUMENT_FETCH_ALLOWED_HOSTS: allowedHosts };
  const children: Child[] = [];
  const child = (script: string, cpu: number | null) => {
    const c = startChild(join(__dirname, script), cpu, env);
    children.push(c);
    return c;
  };
  try {
    const left = await cleanUp();
    if (left.endpoints || left.people) say(`bench-webhooks: removed what an earlier run left: ${left.endpoints} endpoint(s), ${left.people} people`);
    const receiverChild = child('receiver-child.js', loadCpu);
    const loadChild = child('load-child.js', loadCpu);
    const receiverUrl = await receiverChild.call<string>('start');
    /**
     * The app, once its worker's start-up sweep has run a dispatch: with no endpoint enabled, that
     * moves the dispatcher's cursor past every change recorded so far (seen by the cursor in
     * webhook_dispatch changing). A run that seeded starts the app again: the seed's changes came
     * after that first dispatch, and the endpoints about to be created would otherwise have the
     * dispatcher page through all of them (500 a run) before the first delivery.
     */
    const dispatchCursor = async () => {
      // Two statements: PostgreSQL resolves every relation a statement names before running it.
      const { rows: made } = await monitor.query<{ ready: boolean }>(`select to_regclass('webhook_dispatch') is not null as ready`);
      if (!made[0].ready) return null;
      const { rows } = await monitor.query<{ cursor: string | null }>(`select "cursor" from webhook_dispatch`);
      return rows[0]?.cursor ?? null;
    };
    /** The app, and with BENCH_WEBHOOKS_WORKER=separate a worker process of its own beside it (the app then runs none). */
    const startApp = async (): Promise<{ child: Child; ready: ServerReady; worker: Child | null }> => {
      const before = await dispatchCursor();
      const c = child('server-child.js', serverCpu);
      const ready = await c.call<ServerReady>('start', { role: 'app', databaseUrl, size, runWorker: !separateWorker } satisfies ServerStart);
      let w: Child | null = null;
      if (separateWorker) {
        w = child('server-child.js', workerCpu);
        await w.call<ServerReady>('start', { role: 'worker', databaseUrl } satisfies ServerStart);
      }
      const end = Date.now() + 30_000;
      while ((await dispatchCursor()) === before && Date.now() < end) await sleep(100);
      return { child: c, ready, worker: w };
    };
    let started1 = await startApp();
    const seededNow = started1.ready.data!.seeded || started1.ready.data!.dealsSeeded;
    if (seededNow) {
      const { seedMs } = started1.ready.data!;
      for (const c of [started1.child, started1.worker]) {
        if (!c) continue;
        await c.close();
        children.splice(children.indexOf(c), 1);
      }
      started1 = await startApp();
      say(`bench-webhooks: seeded in ${(seedMs / 1000).toFixed(1)} s; the app started again (its dispatcher past the seed's changes)`);
    }
    const { child: appChild, ready: app, worker: workerChild } = started1;
    const data = app.data!;
    const key = encodeURIComponent(data.apiKey);
    say(
      `bench-webhooks: db ${embedded ? 'embedded' : new URL(databaseUrl).host}/crm_bench${seededNow ? '' : ' (already seeded)'}; ` +
        `${workerChild ? `app (API only) pid ${appChild.pid}${pin ? ` on CPU ${appChild.cpus()}` : ''}, worker pid ${workerChild.pid}${pin ? ` on CPU ${workerChild.cpus()}` : ''}` : `app (API and worker in one process) pid ${appChild.pid}${pin ? ` on CPU ${appChild.cpus()}` : ''}`}, load generator pid ${loadChild.pid}${pin ? ` on CPU ${loadChild.cpus()}` : ''}, ` +
        `receiver pid ${receiverChild.pid}${pin ? ` on CPU ${receiverChild.cpus()}` : ''} at ${receiverUrl}${pin ? '' : ' (not pinned)'}; PostgreSQL not pinned`,
    );
    say(
      `bench-webhooks: worker JOB_CONCURRENCY=${config.jobs.concurrency} JOB_SWEEP_INTERVAL_MS=${config.jobs.sweepIntervalMs} JOB_POLL_INTERVAL_MS=${config.jobs.pollIntervalMs}; ` +
        `DOCUMENT_FETCH_ALLOWED_HOSTS=${allowedHosts}; rate limits 1e9; load average ${loadAtStart} (${cpus.length || '?'} CPUs)`,
    );

    const gql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${data.apiKey}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: T; errors?: unknown[] };
      if (res.status !== 200 || body.errors || !body.data) throw new Error(`GraphQL ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
      return body.data;
    };
    /** The three endpoints, created as an administrator does (GraphQL), each with a path of its own on the receiver. */
    const createEndpoints = async (): Promise<Endpoint[]> => {
      const made: Endpoint[] = [];
      for (let i = 1; i <= ENDPOINTS; i++) {
        const path = `/hook/${i}`;
        const out = await gql<{
          createWebhookEndpoint: { webhookEndpoint: { databaseId: number; signingSecret: string } | null; userErrors: unknown[] };
        }>(
          'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId signingSecret } userErrors { field message } } }',
          { input: { url: `${receiverUrl}${path}`, models: ['PERSON'], actions: ['CREATE'], description: DESCRIPTION } },
        );
        const created = out.createWebhookEndpoint;
        if (!created.webhookEndpoint || created.userErrors.length) throw new Error(`createWebhookEndpoint: ${JSON.stringify(created.userErrors)}`);
        made.push({ id: created.webhookEndpoint.databaseId, secret: created.webhookEndpoint.signingSecret, path });
      }
      await receiverChild.call('secrets', Object.fromEntries(made.map((e) => [e.path, e.secret])));
      return made;
    };
    /**
     * Until the endpoints have no delivery pending (at most 30 s): a delivery arrives before the
     * app records its attempt, so the last arrival does not mean the worker is done with them.
     */
    const settled = async (endpoints: readonly Endpoint[]) => {
      const end = Date.now() + 30_000;
      while (Date.now() < end) {
        const { rows } = await monitor.query<{ n: string }>(
          `select count(*) as n from webhook_deliveries where endpoint_id = any($1::int[]) and status = 'pending'`,
          [endpoints.map((e) => e.id)],
        );
        if (Number(rows[0].n) === 0) return;
        await sleep(50);
      }
    };
    const deleteEndpoints = async (endpoints: readonly Endpoint[]) => {
      await settled(endpoints);
      for (const e of endpoints) await gql(`mutation { deleteWebhookEndpoint(id: ${e.id}) { deletedDatabaseId } }`);
    };

    /** Every arrival from index `from` on, once `expected` distinct webhook-ids have arrived (or the timeout passed). */
    const arrivalsFrom = async (from: number, expected: number, timeout = timeoutMs): Promise<{ arrivals: Arrival[]; timedOut: boolean }> => {
      const end = Date.now() + timeout;
      for (;;) {
        const { arrivals } = await receiverChild.call<{ arrivals: number }>('count');
        if (arrivals - from >= expected || Date.now() > end) {
          const got = await receiverChild.call<Arrival[]>('take', from);
          if (new Set(got.map((a) => a.webhookId)).size >= expected) return { arrivals: got, timedOut: false };
          if (Date.now() > end) return { arrivals: got, timedOut: true };
        }
        await sleep(20);
      }
    };
    const arrivedSoFar = async () => (await receiverChild.call<{ arrivals: number }>('count')).arrivals;

    const createPath = `/api/v3/people.json?api_key=${key}`;
    const personBody = JSON.stringify({ person: { first_name: 'Hook', last_name: MARKER } });
    const pacedRun = (secs: number) =>
      loadChild.call<PacedRun>('paced', {
        writer,
        rate,
        seconds: secs,
        maxInFlight,
        url: app.url,
        path: createPath,
        body: personBody,
        databaseUrl,
        accountId: data.accountId,
        ownerId: data.adminId,
        lastName: MARKER,
      } satisfies PacedSpec);
    const created = (rs: readonly PacedResult[]) => rs.filter((r) => r.status >= 200 && r.status <= 299 && r.id !== null);
    const writeLabel = writer === 'v3' ? 'v3 person creates (POST /api/v3/people.json)' : 'person inserts by SQL (the API bypassed)';

    // ---- 1. Lag at a steady rate ----------------------------------------------------------------
    let endpoints = await createEndpoints();
    // A warm-up at the same rate: the create path is warm, and the dispatcher's cursor has caught
    // up with whatever came before the endpoints existed.
    let from = await arrivedSoFar();
    const warmStart = Date.now();
    const warmRun = await pacedRun(warmSeconds);
    const warm = created(warmRun.results);
    if (warm.length === 0) throw new Error(`the warm-up wrote nothing: ${warmRun.firstError ?? 'no write was sent'}`);
    const warmArrivals = await arrivalsFrom(from, warm.length * ENDPOINTS);
    say(
      `warm-up: ${warm.length} ${writeLabel} at ${rate}/s, ${new Set(warmArrivals.arrivals.map((a) => a.webhookId)).size} of ${warm.length * ENDPOINTS} deliveries ` +
        `${warmArrivals.timedOut ? 'by the timeout' : `in ${((Date.now() - warmStart) / 1000).toFixed(1)} s`}`,
    );
    await quiesce(monitor);

    from = await arrivedSoFar();
    // BENCH_PROFILE_DIR: a CPU profile of the app from the first write to the last delivery (the profiler slows it).
    const profileDir = process.env.BENCH_PROFILE_DIR || null;
    if (profileDir) await appChild.call('profile-start');
    // What PostgreSQL's sessions of this database wait on, sampled every 250 ms over the phase
    // (`object`: the commit of a transaction that sent a NOTIFY, which PostgreSQL serializes).
    const waits = { samples: 0, lockWaiters: [] as number[], active: [] as number[], statements: new Map<string, number>() };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await monitor.query<{ waiting: string; active: string; statements: string[] | null }>(
          `select count(*) filter (where wait_event_type = 'Lock') as waiting, count(*) filter (where state = 'active') as active,
                  array_agg(wait_event || ': ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 60)) filter (where wait_event_type = 'Lock') as statements
             from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
        );
        waits.samples++;
        waits.lockWaiters.push(Number(rows[0].waiting));
        waits.active.push(Number(rows[0].active));
        for (const q of rows[0].statements ?? []) waits.statements.set(q, (waits.statements.get(q) ?? 0) + 1);
        await sleep(250);
      }
    })();
    const { results: phase, skipped, firstError } = await pacedRun(seconds);
    const writes = created(phase);
    const writesDone = Math.max(...phase.map((r) => r.done));
    const { arrivals, timedOut } = await arrivalsFrom(from, writes.length * ENDPOINTS);
    sampling = false;
    await sampler;
    if (profileDir) {
      const file = join(profileDir, `webhooks-lag-${writer}.cpuprofile`);
      await appChild.call('profile-stop', file);
      say(`profile of the app over the lag phase: ${file} (profiled: slower than without)`);
    }
    // Lag: from the create's response (the change is committed before it is answered; the writer
    // knows of it from then on) to the delivery's arrival, both on this machine's wall clock.
    const answeredAt = new Map(writes.map((r) => [r.id!, r.done]));
    const firstById = new Map<string, Arrival>();
    for (const a of arrivals) if (!firstById.has(a.webhookId)) firstById.set(a.webhookId, a);
    const unique = [...firstById.values()];
    const duplicates = arrivals.length - unique.length;
    const ours = unique.filter((a) => answeredAt.has(a.recordId) && a.type === 'person.created');
    const strangers = unique.length - ours.length;
    const perEndpoint = endpoints.map((e) => ours.filter((a) => a.path === e.path));
    // Each (endpoint, record) once: a second webhook-id for the same change would be a double dispatch.
    const pairs = new Set(ours.map((a) => `${a.path} ${a.recordId}`));
    const missing = writes.length * ENDPOINTS - pairs.size;
    // A delivery still missing at the timeout counts as an infinite lag (printed `>timeout`): the
    // percentiles are over every delivery expected, not only those that came.
    const lags = sorted([...ours.map((a) => a.at - answeredAt.get(a.recordId)!), ...Array<number>(Math.max(0, missing)).fill(Infinity)]);
    const sinceOccurred = sorted(ours.map((a) => a.at - a.occurredAt));
    const latency = sorted(phase.map((r) => r.done - r.due));
    const phaseStart = Math.min(...phase.map((r) => r.due));
    const lastArrival = Math.max(...ours.map((a) => a.at));
    const deliveredPerS = ours.length / ((lastArrival - phaseStart) / 1000);
    const duringWrites = ours.filter((a) => a.at <= writesDone).length / ((writesDone - phaseStart) / 1000);
    // In order per endpoint: the deliveries' ids (webhook-id `msg_<id>`, made in the order the
    // dispatcher read the changes: commit order) never go back in arrival order. The change ids
    // may: concurrent writers commit out of their id order.
    const inversions = (list: readonly Arrival[], id: (a: Arrival) => number) => {
      const byArrival = [...list].sort((a, b) => a.at - b.at);
      let back = 0;
      for (let i = 1; i < byArrival.length; i++) if (id(byArrival[i]) < id(byArrival[i - 1])) back++;
      return back;
    };
    const outOfOrder = perEndpoint.map((list) => inversions(list, (a) => Number(a.webhookId.replace(/^msg_/, ''))));
    const changeOrder = perEndpoint.map((list) => inversions(list, (a) => a.changeId));
    say(
      `lag phase: ${writeLabel} due at ${rate}/s for ${seconds} s: ${phase.length} sent, ${writes.length} created (${phase.length - writes.length} failed), ` +
        `${skipped} not sent (${maxInFlight} unanswered already)${firstError ? ` (first failure: ${firstError})` : ''}: ${(writes.length / seconds).toFixed(0)} changes/s achieved; ` +
        `response time (from when due) p50 ${ms(percentile(latency, 50))} ms, p99 ${ms(percentile(latency, 99))} ms, max ${ms(latency[latency.length - 1])} ms`,
    );
    say(
      `  deliveries: ${ours.length} of ${writes.length * ENDPOINTS} expected (${perEndpoint.map((l, i) => `endpoint ${i + 1}: ${l.length}`).join(', ')}), ` +
        `${missing} missing, ${duplicates} duplicate webhook-id(s), ${strangers} not of this phase${timedOut ? `, TIMED OUT after ${timeoutMs / 1000} s` : ''}; ` +
        `deliveries out of order per endpoint: ${outOfOrder.join('/')} (change ids out of id order: ${changeOrder.join('/')})`,
    );
    say(
      `  last delivery ${fixed((lastArrival - writesDone) / 1000, 1)} s after the last create's response; delivered ${deliveredPerS.toFixed(0)}/s over the phase ` +
        `(first create to last delivery), ${duringWrites.toFixed(0)}/s while the creates were sent (${rate * ENDPOINTS}/s would keep up)`,
    );
    say(
      `  lag from the create's response: p50 ${lagMs(percentile(lags, 50), timeoutMs)} ms, p90 ${lagMs(percentile(lags, 90), timeoutMs)} ms, ` +
        `p99 ${lagMs(percentile(lags, 99), timeoutMs)} ms, min ${lagMs(lags[0], timeoutMs)} ms, max ${lagMs(lags[lags.length - 1], timeoutMs)} ms; from data.occurred_at (the transaction's start): ` +
        `p50 ${ms(percentile(sinceOccurred, 50))} ms, p99 ${ms(percentile(sinceOccurred, 99))} ms`,
    );
    // The lag over the phase, by when the create was answered: a backlog growing shows as a climb.
    const windowMs = 5000;
    const windows: string[] = [];
    for (let t = phaseStart; t < writesDone; t += windowMs) {
      const inWindow = sorted(
        ours.filter((a) => answeredAt.get(a.recordId)! >= t && answeredAt.get(a.recordId)! < t + windowMs).map((a) => a.at - answeredAt.get(a.recordId)!),
      );
      if (inWindow.length) windows.push(`${((t - phaseStart) / 1000).toFixed(0)}s ${ms(percentile(inWindow, 50))}/${ms(percentile(inWindow, 99))}`);
    }
    say(`  lag p50/p99 ms by ${windowMs / 1000} s window of the creates' responses: ${windows.join(', ')}`);
    const topWaits = [...waits.statements].sort((a, b) => b[1] - a[1]).slice(0, 3);
    say(
      `  PostgreSQL sessions of crm_bench over the phase (${waits.samples} samples, 250 ms apart): active p50 ${percentile(sorted(waits.active), 50)}, max ${Math.max(...waits.active)}; ` +
        `waiting on a lock in ${waits.lockWaiters.filter((n) => n > 0).length} samples (max ${Math.max(...waits.lockWaiters)} at once)` +
        `${topWaits.length ? `; most seen waiting: ${topWaits.map(([q, n]) => `${n}× "${q}"`).join(', ')}` : ''}`,
    );
    const signaturesOf = async () => (await receiverChild.call<{ signatures: { verified: number; bad: number; unknown: number } }>('count')).signatures;
    const sig = await signaturesOf();
    say(`  signatures checked at arrival (standardwebhooks) so far: ${sig.verified} verified, ${sig.bad} bad, ${sig.unknown} from an unknown path`);
    await quiesce(monitor);

    // ---- 2. Write overhead: three endpoints subscribed vs none, in interleaved rounds ------------
    type Arm = 'three' | 'none';
    const requests: LoadSpec['requests'] = [{ method: 'POST', path: createPath, headers: { 'content-type': 'application/json' }, body: personBody }];
    /** Endpoints as the arm wants them: deleted for "none"; created for "three", and one create delivered to each (the dispatcher caught up). */
    const arrange = async (arm: Arm) => {
      if (arm === 'none' && endpoints.length) {
        await deleteEndpoints(endpoints);
        endpoints = [];
      }
      if (arm === 'three' && !endpoints.length) {
        endpoints = await createEndpoints();
        const start = await arrivedSoFar();
        const res = await fetch(`${app.url}${createPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: personBody });
        await res.arrayBuffer();
        const primed = await arrivalsFrom(start, ENDPOINTS, 30_000);
        if (primed.timedOut) throw new Error(`the endpoints created for a "three" round received ${primed.arrivals.length} of ${ENDPOINTS} deliveries in 30 s`);
      }
      await quiesce(monitor);
    };
    interface ArmResult {
      readonly rps: number;
      readonly creates: number;
      readonly failed: number;
      /** The app's CPU from the start of the run until it was quiet again (its deliveries sent, for "three"), per create. */
      readonly cpuMs: number;
      /** "three": deliveries that arrived during the run, of those its creates made. */
      readonly duringRun?: number;
      readonly expected?: number;
      readonly drainS?: number;
    }
    const measure = async (arm: Arm, secs: number): Promise<ArmResult> => {
      await arrange(arm);
      const before = await appChild.call<ServerUsage>('usage');
      const start = await arrivedSoFar();
      const res = await loadChild.call<LoadResult>('run', { url: app.url, requests, seconds: secs, connections } satisfies LoadSpec);
      const ended = Date.now();
      const creates = res.total - res.non2xx;
      let extra: Partial<ArmResult> = {};
      if (arm === 'three') {
        const atEnd = (await arrivedSoFar()) - start;
        // The backlog is left to drain before anything else runs: the next run starts on an idle app.
        const drained = await arrivalsFrom(start, creates * ENDPOINTS);
        await settled(endpoints);
        if (drained.timedOut) say(`  warning: "three" run drained ${drained.arrivals.length} of ${creates * ENDPOINTS} deliveries by the timeout`);
        extra = { duringRun: atEnd, expected: creates * ENDPOINTS, drainS: (Date.now() - ended) / 1000 };
      }
      await quiesce(monitor);
      const after = await appChild.call<ServerUsage>('usage');
      return { rps: res.rps, creates, failed: res.non2xx + res.errors, cpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / Math.max(1, creates), ...extra };
    };
    const describe = (arm: Arm, r: ArmResult) =>
      `${arm} ${r.rps.toFixed(0)} req/s (${fixed(r.cpuMs)} cpu ms/create${r.failed ? `, ${r.failed} failed` : ''}` +
      `${r.expected !== undefined ? `; ${r.duringRun} of ${r.expected} deliveries during the run, the rest in ${fixed(r.drainS!, 1)} s` : ''})`;

    /** Interleaved rounds, three vs none; the median none/three ratio of req/s. */
    const overheadPhase = async (): Promise<number> => {
      say(
        `\noverhead: POST /api/v3/people.json with ${ENDPOINTS} endpoints subscribed to person creates ("three") and with none ("none", the endpoints deleted); ` +
          `${rounds} interleaved rounds of ${roundSeconds} s per arm after ${warmup} s warm-up each; autocannon, ${connections} connections`,
      );
      const arms: Arm[] = ['three', 'none'];
      for (const arm of arms) say(`warm-up ${describe(arm, await measure(arm, warmup))}`);
      const results = new Map<Arm, ArmResult[]>(arms.map((a) => [a, []]));
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const got = new Map<Arm, ArmResult>();
        for (const arm of roundOrder(arms, r)) {
          const res = await measure(arm, roundSeconds);
          got.set(arm, res);
          results.get(arm)!.push(res);
        }
        const ratio = got.get('none')!.rps / got.get('three')!.rps;
        const cpuRatio = got.get('three')!.cpuMs / got.get('none')!.cpuMs;
        ratios.push(ratio);
        cpuRatios.push(cpuRatio);
        say(
          `round ${r + 1}/${rounds}: ${roundOrder(arms, r)
            .map((a) => describe(a, got.get(a)!))
            .join('  ')}  none/three ${fixed(ratio)} (cpu three/none ${fixed(cpuRatio)})`,
        );
      }

      const overhead = spread(ratios);
      const cpuOverhead = spread(cpuRatios);
      const rpsOf = (arm: Arm) => spread(results.get(arm)!.map((x) => x.rps));
      const drain = spread(results.get('three')!.map((x) => x.drainS!));
      const kept = spread(results.get('three')!.map((x) => x.duringRun! / Math.max(1, x.expected!)));
      say(
        `\noverhead: three ${rpsOf('three').median.toFixed(0)} req/s (${rpsOf('three').min.toFixed(0)}-${rpsOf('three').max.toFixed(0)}), ` +
          `none ${rpsOf('none').median.toFixed(0)} req/s (${rpsOf('none').min.toFixed(0)}-${rpsOf('none').max.toFixed(0)}); ` +
          `none/three median ${fixed(overhead.median)}, range ${fixed(overhead.min)}-${fixed(overhead.max)}, per round ${ratios.map((v) => fixed(v)).join(' ')}; ` +
          `app cpu per create (deliveries included) three/none median ${fixed(cpuOverhead.median)}, range ${fixed(cpuOverhead.min)}-${fixed(cpuOverhead.max)}; ` +
          `"three" runs: ${fixed(kept.median * 100, 0)}% of their deliveries arrived during the run (median), the rest within ${fixed(drain.median, 1)} s (median; max ${fixed(drain.max, 1)} s)`,
      );
      return overhead.median;
    };
    // BENCH_WEBHOOKS_OVERHEAD=0: the lag phase alone (write_overhead=n/a).
    const writeOverhead = process.env.BENCH_WEBHOOKS_OVERHEAD === '0' ? NaN : await overheadPhase();
    if (endpoints.length) await deleteEndpoints(endpoints);
    endpoints = [];
    const sigEnd = await signaturesOf();
    say(
      `signatures checked at arrival (standardwebhooks), the whole run: ${sigEnd.verified} verified, ${sigEnd.bad} bad, ${sigEnd.unknown} from an unknown path`,
    );
    say(`load average at end: ${loadNow()}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
    say(
      `bench-webhooks: events=${writes.length} delivered_per_s=${deliveredPerS.toFixed(0)} p50_lag_ms=${lagMs(percentile(lags, 50), timeoutMs)} ` +
        `p99_lag_ms=${lagMs(percentile(lags, 99), timeoutMs)} write_overhead=${fixed(writeOverhead)}`,
    );
  } finally {
    await Promise.all(children.map((c) => c.close()));
    // The people this run created go, and the endpoints if a failure left them: the regular bench finds its account as seeded.
    await cleanUp().catch((error: unknown) => say(`bench-webhooks: clean-up failed: ${String(error)}`));
    await monitor.end();
    await embedded?.stop();
  }
}
