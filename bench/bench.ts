import 'reflect-metadata';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode } from 'graphql';
import { Client } from 'pg';
import { allowedCpus, NODE_FLAGS, startChild, tasksetAvailable, type Child } from './child-process';
import { PIPELINING, type LoadRequest, type LoadResult, type LoadSpec } from './load-child';
import { roundOrder, spread, type Spread } from './rounds';
import type { ServerReady, ServerStart, ServerUsage } from './server-child';
import { positive } from './env';

/**
 * `npm run bench` (bench/README.md). This process only orchestrates: the app, the raw baseline and
 * the load generator are child processes pinned to CPUs of their own; app and baseline take turns
 * in short interleaved rounds, and each round yields one app/baseline ratio.
 */

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
 * active statement of this database and the event loops had a moment to drain.
 */
async function quiesce(client: Client): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
    );
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

/** One side of a comparison: a server and the requests sent to it. */
interface Arm {
  readonly name: string;
  readonly server: Child;
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  /** One request, to check the answer and count its SQL. */
  readonly probe: () => Promise<{ status: number; body: any }>;
}

/** Arms measured in the same interleaved rounds; ratios are taken within a round. */
interface Group {
  readonly name: 'list' | 'show' | 'keyset' | 'deals';
  readonly arms: readonly Arm[];
}

/** Both deals baselines; a round's deals ratios are taken against the faster of the two. */
const DEAL_BASELINES = ['raw_deals', 'sql_deals'] as const;

/**
 * The GraphQL side of the deals list: the same selection as v3's (the facade's generated
 * `DealV3` fragment: every field and convenience object, people up to 200 a deal), paged by
 * `first` as a GraphQL client would, with the total.
 */
const DEALS_OPERATION = 'query BenchDeals { deals(first: 200) { totalCount nodes { ...DealV3 } } }';

const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const range = (s: Spread | null) => (s ? `${fixed(s.min)}-${fixed(s.max)}` : 'n/a');
const say = (line: string) => process.stdout.write(`${line}\n`);
const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { resolveDatabase } = await import('../src/cli/database');
  const { operationsSource } = await import('../rest-facade');
  const { createSchema } = await import('../src/app/schema');

  const rounds = Math.round(positive('BENCH_ROUNDS', 9));
  const seconds = positive('BENCH_ROUND_SECONDS', 3);
  const warmup = positive('BENCH_WARMUP_SECONDS', 5);
  const connections = Math.round(positive('BENCH_CONNECTIONS', 10));
  const size = { people: positive('BENCH_PEOPLE', 100_000), companies: positive('BENCH_COMPANIES', 5_000), users: 9, deals: positive('BENCH_DEALS', 1_000) };
  const profileDir = process.env.BENCH_PROFILE_DIR || null;
  const only = process.env.BENCH_SCENARIOS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
  setLogLevel('error');

  // Pinning: the load generator on the first allowed CPU, both servers (one at a time busy) on the last.
  const cpus = allowedCpus() ?? [];
  const pin = process.env.BENCH_PIN !== '0' && cpus.length >= 2 && tasksetAvailable();
  const loadCpu = pin ? cpus[0] : null;
  const serverCpu = pin ? cpus[cpus.length - 1] : null;

  const started = Date.now();
  const loadAtStart = loadNow();
  // The database is resolved (and an embedded one started) before anything is pinned: PostgreSQL
  // keeps the affinity it has, whoever else shares the machine.
  const { url: databaseUrl, embedded } = await resolveDatabase(config, { database: 'crm_bench', benchmark: true });
  const env = { ...process.env, NODE_ENV: process.env.NODE_ENV };
  const children: Child[] = [];
  const child = (script: string, cpu: number | null) => {
    const c = startChild(join(__dirname, script), cpu, env);
    children.push(c);
    return c;
  };
  const monitor = new Client({ connectionString: databaseUrl });
  await monitor.connect();
  try {
    const appChild = child('server-child.js', serverCpu);
    const rawChild = child('server-child.js', serverCpu);
    const loadChild = child('load-child.js', loadCpu);
    // The app first and alone: it migrates and seeds; then the baseline.
    const app = await appChild.call<ServerReady>('start', { role: 'app', databaseUrl, size } satisfies ServerStart);
    const raw = await rawChild.call<ServerReady>('start', { role: 'raw', databaseUrl } satisfies ServerStart);
    const data = app.data!;
    say(
      `bench: ${size.people} people, ${size.companies} companies, ${size.users + 1} users, ${size.deals} deals (${data.seeded || data.dealsSeeded ? `seeded in ${(data.seedMs / 1000).toFixed(1)} s` : 'already seeded'}); ` +
        `db ${embedded ? 'embedded' : new URL(databaseUrl).host}/crm_bench; ${rounds} interleaved rounds of ${seconds} s per scenario (order A B, B A, ...) ` +
        `after ${warmup} s warm-up each; ${connections} connections, pipelining ${PIPELINING}`,
    );
    say(`load average at start: ${loadAtStart} (1/5/15 min, ${cpus.length || '?'} CPUs)`);
    say(
      pin
        ? `pinned (taskset): load generator pid ${loadChild.pid} on CPU ${loadChild.cpus()}; app pid ${appChild.pid} on CPU ${appChild.cpus()}; ` +
            `raw baseline pid ${rawChild.pid} on CPU ${rawChild.cpus()}; PostgreSQL and this orchestrating process not pinned`
        : `not pinned (${process.env.BENCH_PIN === '0' ? 'BENCH_PIN=0' : cpus.length < 2 ? 'fewer than 2 CPUs' : 'no taskset'}): processes may migrate between CPUs`,
    );
    say(
      `same for app and baseline: node ${NODE_FLAGS.join(' ')}, NODE_ENV=${env.NODE_ENV}, LOG_LEVEL=error (no request lines), pg pool of 10, ` +
        `PostgreSQL ${new URL(databaseUrl).host}/crm_bench with the same seed, the same requests and key; app rate limits 1e9`,
    );

    const key = encodeURIComponent(data.apiKey);
    // The operations as served: most are derived from the schema (rest-facade/routes/derived-operations.ts).
    const source = operationsSource(createSchema());
    const gql = (op: string, variables: Record<string, unknown>) => JSON.stringify({ query: operationDocument(source, op), operationName: op, variables });
    const gqlHeaders = { 'content-type': 'application/json', authorization: `Bearer ${data.apiKey}` };
    const listPath = `/api/v3/people.json?per_page=100&api_key=${key}`;
    const showPaths = data.sampleIds.map((id) => `/api/v3/people/${id}.json?api_key=${key}`);
    const post = (body: string) => () => fetchJson(`${app.url}/graphql`, { method: 'POST', headers: gqlHeaders, body });
    const listBody = gql('ListPeople', { page: 1, perPage: 100 });
    const get = (path: string): LoadRequest => ({ method: 'GET', path });
    // Keyset paging: the first page of 20 people against the page after the 99,980th (page 5,000
    // of 20), reached with a cursor. Equal cost is the point of cursors.
    const CURSOR_PAGE =
      'query CursorPage($after: String) { people(first: 20, after: $after) { nodes { databaseId fullName email } pageInfo { hasNextPage endCursor } } }';
    const deepEdge = await fetchJson(`${app.url}/graphql`, {
      method: 'POST',
      headers: gqlHeaders,
      body: JSON.stringify({ query: `{ people(page: ${Math.floor(size.people / 20)}, perPage: 20) { edges { cursor } } }` }),
    });
    const deepCursor: string | null = deepEdge.body?.data?.people?.edges?.[0]?.cursor ?? null;
    if (!deepCursor) throw new Error(`could not read a deep cursor: ${JSON.stringify(deepEdge.body).slice(0, 300)}`);
    const cursorBody = (after: string | null) => JSON.stringify({ query: CURSOR_PAGE, operationName: 'CursorPage', variables: { after } });

    // The conditional show (issue 26 §2): each sample person's show with the ETag it answered, so
    // every request is a 304 (the read runs, the body is hashed and not sent).
    const etags = await Promise.all(showPaths.map(async (path) => (await fetch(app.url + path)).headers.get('etag') ?? ''));
    if (etags.some((t) => t === '')) throw new Error('a v3 show answered no ETag');
    const conditional = showPaths.map((path, i): LoadRequest => ({ method: 'GET', path, headers: { 'if-none-match': etags[i] } }));
    const allGroups: Group[] = [
      {
        name: 'list',
        arms: [
          { name: 'rest_list', server: appChild, url: app.url, requests: [get(listPath)], probe: () => fetchJson(app.url + listPath) },
          { name: 'raw_list', server: rawChild, url: raw.url, requests: [get(listPath)], probe: () => fetchJson(raw.url + listPath) },
          {
            name: 'graphql_list',
            server: appChild,
            url: app.url,
            requests: [{ method: 'POST', path: '/graphql', headers: gqlHeaders, body: listBody }],
            probe: post(listBody),
          },
        ],
      },
      {
        name: 'show',
        arms: [
          { name: 'rest_show', server: appChild, url: app.url, requests: showPaths.map(get), probe: () => fetchJson(app.url + showPaths[0]) },
          { name: 'raw_show', server: rawChild, url: raw.url, requests: showPaths.map(get), probe: () => fetchJson(raw.url + showPaths[0]) },
          {
            name: 'rest_show_304',
            server: appChild,
            url: app.url,
            requests: conditional,
            probe: async () => {
              const res = await fetch(app.url + showPaths[0], { headers: { 'if-none-match': etags[0] } });
              if (res.status !== 304) throw new Error(`the conditional show answered ${res.status}, not 304`);
              return { status: res.status, body: undefined };
            },
          },
          {
            name: 'graphql_show',
            server: appChild,
            url: app.url,
            requests: data.sampleIds.map((id) => ({ method: 'POST', path: '/graphql', headers: gqlHeaders, body: gql('ShowPerson', { id }) })),
            probe: post(gql('ShowPerson', { id: data.sampleIds[0] })),
          },
        ],
      },
      {
        name: 'keyset',
        arms: [
          {
            name: 'cursor_first',
            server: appChild,
            url: app.url,
            requests: [{ method: 'POST', path: '/graphql', headers: gqlHeaders, body: cursorBody(null) }],
            probe: post(cursorBody(null)),
          },
          {
            name: 'cursor_deep',
            server: appChild,
            url: app.url,
            requests: [{ method: 'POST', path: '/graphql', headers: gqlHeaders, body: cursorBody(deepCursor) }],
            probe: post(cursorBody(deepCursor)),
          },
        ],
      },
    ];
    // The deals list with every convenience object (bench/raw-deals.ts): REST, GraphQL, and two
    // baselines answering the same JSON: page + batched statements, and one SQL statement.
    const dealsPath = `/api/v3/deals.json?per_page=200&api_key=${key}`;
    const dealsBody = JSON.stringify({ query: operationDocument(`${source}\n${DEALS_OPERATION}`, 'BenchDeals'), operationName: 'BenchDeals', variables: {} });
    allGroups.push({
      name: 'deals',
      arms: [
        { name: 'rest_deals', server: appChild, url: app.url, requests: [get(dealsPath)], probe: () => fetchJson(app.url + dealsPath) },
        { name: 'raw_deals', server: rawChild, url: raw.url, requests: [get(dealsPath)], probe: () => fetchJson(raw.url + dealsPath) },
        {
          name: 'sql_deals',
          server: rawChild,
          url: raw.url,
          requests: [get(`/one-sql${dealsPath}`)],
          probe: () => fetchJson(`${raw.url}/one-sql${dealsPath}`),
        },
        {
          name: 'graphql_deals',
          server: appChild,
          url: app.url,
          requests: [{ method: 'POST', path: '/graphql', headers: gqlHeaders, body: dealsBody }],
          probe: post(dealsBody),
        },
      ],
    });
    const arms = allGroups.flatMap((g) => g.arms);
    const byName = new Map(arms.map((a) => [a.name, a]));
    const groups = allGroups.map((g) => ({ ...g, arms: g.arms.filter((a) => !only || only.includes(a.name)) })).filter((g) => g.arms.length > 0);

    // Correctness first: the baseline must produce the facade's exact JSON, or the ratio means nothing.
    const [restList, rawList, restShow, rawShow, gqlList] = await Promise.all(
      ['rest_list', 'raw_list', 'rest_show', 'raw_show', 'graphql_list'].map((n) => byName.get(n)!.probe()),
    );
    if (restList.status !== 200 || rawList.status !== 200 || gqlList.status !== 200 || gqlList.body.errors) {
      throw new Error(
        `probe failed: rest ${restList.status}, raw ${rawList.status}, graphql ${gqlList.status} ${JSON.stringify(gqlList.body?.errors ?? '').slice(0, 300)}`,
      );
    }
    if (restList.body.entries.length !== 100) throw new Error(`REST list returned ${restList.body.entries.length} entries, expected 100`);
    const diffs = differences(restList.body, rawList.body, differences(restShow.body, rawShow.body));
    say(
      diffs.size === 0
        ? 'check: raw baseline JSON identical to the facade (list and show)'
        : `check: raw baseline JSON differs from the facade's at ${diffs.size} path(s):\n${[...diffs].map(([p, d]) => `  ${p}: ${d}`).join('\n')}`,
    );
    const [restDeals, rawDeals, sqlDeals, gqlDeals] = await Promise.all(
      ['rest_deals', 'raw_deals', 'sql_deals', 'graphql_deals'].map((n) => byName.get(n)!.probe()),
    );
    if ([restDeals, rawDeals, sqlDeals, gqlDeals].some((r) => r.status !== 200) || gqlDeals.body.errors) {
      throw new Error(
        `deals probe failed: rest ${restDeals.status}, raw ${rawDeals.status}, one-sql ${sqlDeals.status}, graphql ${gqlDeals.status} ${JSON.stringify(gqlDeals.body?.errors ?? '').slice(0, 300)}`,
      );
    }
    const dealCount = Math.min(200, size.deals);
    if (restDeals.body.entries.length !== dealCount || gqlDeals.body.data.deals.nodes.length !== dealCount) {
      throw new Error(
        `deals list returned ${restDeals.body.entries.length} entries (REST), ${gqlDeals.body.data.deals.nodes.length} nodes (GraphQL), expected ${dealCount}`,
      );
    }
    for (const [label, body] of [
      ['batched', rawDeals.body],
      ['one-SQL', sqlDeals.body],
    ] as const) {
      const d = differences(restDeals.body, body);
      say(
        d.size === 0
          ? `check: ${label} deals baseline JSON identical to the facade (${dealCount} deals with every convenience object)`
          : `check: ${label} deals baseline JSON differs from the facade's at ${d.size} path(s):\n${[...d].map(([p, x]) => `  ${p}: ${x}`).join('\n')}`,
      );
    }

    // SQL per request, counted in the server's process after a warm request (pool connections
    // exist, nothing is lazy any more), with that request alone in flight.
    const sql = new Map<string, string[]>();
    for (const arm of groups.flatMap((g) => g.arms)) {
      await arm.probe();
      await arm.server.call('record');
      await arm.probe();
      sql.set(arm.name, await arm.server.call<string[]>('recorded'));
    }
    if (process.env.BENCH_VERBOSE) {
      for (const [name, statements] of sql) say(`sql ${name}:\n${statements.map((t) => `  ${t.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`);
    }

    const load = (arm: Arm, secs: number) =>
      loadChild.call<LoadResult>('run', { url: arm.url, requests: arm.requests, seconds: secs, connections } satisfies LoadSpec);
    /**
     * One measured run, from a quiet database to a quiet database again: the server's CPU time
     * over the responses it finished in that window (requests still in flight at the deadline
     * are in both), besides what autocannon saw.
     */
    const measure = async (arm: Arm): Promise<LoadResult & { cpuMs: number }> => {
      const before = await arm.server.call<ServerUsage>('usage');
      const result = await load(arm, seconds);
      await quiesce(monitor);
      const after = await arm.server.call<ServerUsage>('usage');
      return { ...result, cpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / Math.max(1, after.responses - before.responses) };
    };
    const results = new Map<string, Array<LoadResult & { cpuMs: number }>>();
    const ratios = new Map<string, number[]>();
    const cpuRatios = new Map<string, number[]>();
    const push = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v]);
    // [app side, baseline(s)]: with several baselines a round's ratio is taken against the one
    // that was faster in that round (the deals list: batched or one SQL statement).
    const ratioPairs: Record<Group['name'], Array<[string, string | readonly string[]]>> = {
      list: [
        ['rest_list', 'raw_list'],
        ['graphql_list', 'raw_list'],
      ],
      show: [
        ['rest_show', 'raw_show'],
        ['graphql_show', 'raw_show'],
        ['rest_show_304', 'rest_show'],
      ],
      keyset: [['cursor_deep', 'cursor_first']],
      deals: [
        ['rest_deals', DEAL_BASELINES],
        ['graphql_deals', DEAL_BASELINES],
        ['rest_deals', 'raw_deals'],
        ['rest_deals', 'sql_deals'],
      ],
    };
    const profileRound = rounds >> 1;
    // What the app holds after a full collection, before the load and after it (issue 28: flat
    // over the mixed run), not what it has yet to collect (its RSS under load).
    const heapStart = await appChild.call<number>('heap-after-gc');
    for (const group of groups) {
      for (const arm of group.arms) {
        await quiesce(monitor);
        await load(arm, warmup);
      }
      await quiesce(monitor);
      for (let r = 0; r < rounds; r++) {
        const got = new Map<string, LoadResult & { cpuMs: number }>();
        for (const arm of roundOrder(group.arms, r)) {
          const profiling = profileDir !== null && r === profileRound;
          if (profiling) await arm.server.call('profile-start');
          const result = await measure(arm);
          if (profiling) await arm.server.call('profile-stop', join(profileDir!, `${arm.name}.cpuprofile`));
          got.set(arm.name, result);
          results.set(arm.name, [...(results.get(arm.name) ?? []), result]);
        }
        const parts = [...got].map(([name, res]) => `${name} ${res.rps.toFixed(0)} (${res.cpuMs.toFixed(2)} cpu ms)`);
        for (const [a, baselines] of ratioPairs[group.name]) {
          const candidates = (typeof baselines === 'string' ? [baselines] : baselines).filter((n) => got.has(n));
          if (!got.has(a) || candidates.length === 0) continue;
          const b = candidates.reduce((best, n) => (got.get(n)!.rps > got.get(best)!.rps ? n : best));
          const ratio = got.get(a)!.rps / got.get(b)!.rps;
          // Oriented like the rps ratio: below 1 means the app spends more CPU per request.
          const cpuRatio = got.get(b)!.cpuMs / got.get(a)!.cpuMs;
          const label = `${a}/${typeof baselines === 'string' ? baselines : 'best'}`;
          push(ratios, label, ratio);
          push(cpuRatios, label, cpuRatio);
          parts.push(
            `${a.split('_')[0]}/${typeof baselines === 'string' ? b.split('_')[0] : `best(${b.split('_')[0]})`} ${fixed(ratio)} (cpu ${fixed(cpuRatio)})`,
          );
        }
        say(`round ${r + 1}/${rounds} ${group.name}: ${parts.join('  ')}`);
      }
    }

    const header = ['scenario', 'req/s (median)', 'min-max', 'p50 ms', 'p99 ms', 'MB/s', 'cpu ms/req', 'requests', 'non-2xx', 'sql/req'];
    const rows = [...results].map(([name, rs]) => {
      const rps = spread(rs.map((r) => r.rps));
      return [
        name,
        rps.median.toFixed(0),
        `${rps.min.toFixed(0)}-${rps.max.toFixed(0)}`,
        spread(rs.map((r) => r.p50)).median.toFixed(0),
        spread(rs.map((r) => r.p99)).median.toFixed(0),
        spread(rs.map((r) => r.mbPerSec)).median.toFixed(1),
        spread(rs.map((r) => r.cpuMs)).median.toFixed(2),
        String(rs.reduce((n, r) => n + r.total, 0)),
        String(rs.reduce((n, r) => n + r.non2xx + r.errors, 0)),
        String(sql.get(name)?.length ?? '?'),
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    say(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n`);
    const ratioOf = (pair: string) => (ratios.has(pair) ? spread(ratios.get(pair)!) : null);
    for (const [pair, values] of ratios) {
      const s = spread(values);
      say(`ratio ${pair}: median ${fixed(s.median)}, range ${range(s)}, per round ${values.map((v) => fixed(v)).join(' ')}`);
    }
    for (const [pair, values] of cpuRatios) {
      const s = spread(values);
      say(
        `cpu ratio ${pair} (baseline cpu/request over the app's): median ${fixed(s.median)}, range ${range(s)}, per round ${values.map((v) => fixed(v)).join(' ')}`,
      );
    }
    const [appMem, rawMem] = await Promise.all([appChild.call<NodeJS.MemoryUsage>('memory'), rawChild.call<NodeJS.MemoryUsage>('memory')]);
    const heapEnd = await appChild.call<number>('heap-after-gc');
    say(
      `memory after the run: app rss ${mb(appMem.rss)} (heap used ${mb(appMem.heapUsed)}; after a full collection ${mb(heapStart)} before the load, ${mb(heapEnd)} after it), ` +
        `raw baseline rss ${mb(rawMem.rss)} (heap used ${mb(rawMem.heapUsed)}); ` +
        `statements counted through ${app.pgCopies} pg driver cop${app.pgCopies === 1 ? 'y' : 'ies'} in the app`,
    );
    const loadAtEnd = loadNow();
    say(
      `load average at end: ${loadAtEnd}; total ${((Date.now() - started) / 1000).toFixed(0)} s${profileDir ? `; profiles of round ${profileRound + 1} in ${profileDir} (profiled rounds run slower)` : ''}`,
    );
    // The conditional show's answers are all 304 (not 2xx): it fails on any that is not.
    const failed = [...results]
      .filter(([name, rs]) => rs.some((r) => r.errors > 0 || (name === 'rest_show_304' ? r.non2xx !== r.total : r.non2xx > 0)))
      .map(([n]) => n);
    if (failed.length) say(`warning: non-2xx answers or errors in ${failed.join(', ')}`);

    const medianRps = (name: string) => (results.has(name) ? Math.round(spread(results.get(name)!.map((r) => r.rps)).median) : 0);
    const list = ratioOf('rest_list/raw_list');
    const show = ratioOf('rest_show/raw_show');
    const gqlListRatio = ratioOf('graphql_list/raw_list');
    const gqlShowRatio = ratioOf('graphql_show/raw_show');
    const keyset = ratioOf('cursor_deep/cursor_first');
    const conditionalShow = ratioOf('rest_show_304/rest_show');
    const dealsRatio = ratioOf('rest_deals/best');
    const dealsGql = ratioOf('graphql_deals/best');
    const cpuOf = (pair: string) => (cpuRatios.has(pair) ? fixed(spread(cpuRatios.get(pair)!).median) : 'n/a');
    say(
      `bench: rest_list_rps=${medianRps('rest_list')} raw_list_rps=${medianRps('raw_list')} ratio=${fixed(list?.median ?? NaN)} ratio_range=${range(list)} ` +
        `show_ratio=${fixed(show?.median ?? NaN)} show_ratio_range=${range(show)} sql_per_list=${sql.get('rest_list')?.length ?? 0} ` +
        `rest_show_rps=${medianRps('rest_show')} raw_show_rps=${medianRps('raw_show')} conditional_show_rps=${medianRps('rest_show_304')} conditional_show_ratio=${fixed(conditionalShow?.median ?? NaN)} graphql_list_ratio=${fixed(gqlListRatio?.median ?? NaN)} ` +
        `graphql_show_ratio=${fixed(gqlShowRatio?.median ?? NaN)} keyset_deep_ratio=${fixed(keyset?.median ?? NaN)} ` +
        `list_cpu_ratio=${cpuOf('rest_list/raw_list')} show_cpu_ratio=${cpuOf('rest_show/raw_show')} ` +
        `deals_rest_rps=${medianRps('rest_deals')} deals_raw_rps=${medianRps('raw_deals')} deals_onesql_rps=${medianRps('sql_deals')} ` +
        `deals_list_ratio=${fixed(dealsRatio?.median ?? NaN)} deals_list_ratio_range=${range(dealsRatio)} deals_graphql_ratio=${fixed(dealsGql?.median ?? NaN)} ` +
        `deals_sql_per_list=${sql.get('rest_deals')?.length ?? 0} deals_cpu_ratio=${cpuOf('rest_deals/best')} rounds=${rounds} round_s=${seconds} pinned=${pin ? 'yes' : 'no'} load1_start=${loadAtStart.split(' ')[0]} load1_end=${loadAtEnd.split(' ')[0]} ` +
        `heap_after_gc_mb_start=${(heapStart / 1048576).toFixed(0)} heap_after_gc_mb_end=${(heapEnd / 1048576).toFixed(0)}`,
    );
  } finally {
    await Promise.all(children.map((c) => c.close()));
    await monitor.end();
    await embedded?.stop();
  }
}

/** `--deals N` (or `--deals=N`): the large-account latency run (bench/large.ts) instead of the interleaved rounds. */
function largeDeals(argv: readonly string[]): number | null {
  const i = argv.findIndex((a) => a === '--deals' || a.startsWith('--deals='));
  if (i < 0) return null;
  const raw = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--deals needs a positive whole number, got "${raw}"`);
  return n;
}

const argv = process.argv.slice(2);
const deals = largeDeals(argv);
/** `--webhooks`: webhook delivery lag and write overhead (bench/webhooks.ts) instead of the interleaved rounds. */
const webhooks = argv.includes('--webhooks');
/** `--upsert`: people written one at a time against batches of 100 (bench/upsert.ts) instead of the interleaved rounds. */
const upsert = argv.includes('--upsert');
/** `--import`: a million people imported as one job, then exported (bench/import.ts) instead of the interleaved rounds. */
const bulk = argv.includes('--import');
(webhooks
  ? import('./webhooks').then((m) => m.runWebhooks())
  : upsert
    ? import('./upsert').then((m) => m.runUpsert())
    : bulk
      ? import('./import').then((m) => m.runImport())
      : deals === null
        ? main()
        : import('./large').then((m) => m.runLarge(deals))
).catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
