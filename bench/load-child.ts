import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { serveCommands } from './child-process';

/**
 * The load generator (autocannon) in a process of its own, so it shares neither a server's event
 * loop nor its CPU; it lives for the whole bench and runs one load at a time.
 */

export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface LoadSpec {
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  readonly seconds: number;
  readonly connections: number;
}

export interface LoadResult {
  /** Completed responses per second of the run's real duration. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly mbPerSec: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

/**
 * An open-loop writer (`npm run bench -- --webhooks`): `rate` writes a second for `seconds`, each
 * started at its scheduled time whether or not the earlier ones have finished, unless `maxInFlight`
 * are unfinished: then that slot is skipped (counted), so a server that cannot keep up is seen as
 * a lower rate achieved rather than as a queue growing without end.
 *
 * `v3`: a POST of `body` to `url` + `path` (keep-alive connections), the created record's `id`
 * read from the answer. `sql`: the same person inserted by SQL on a connection of its own (the
 * change records' triggers fire as for any write): the webhook pipeline alone, without the API.
 */
export interface PacedSpec {
  readonly writer: 'v3' | 'sql';
  readonly rate: number;
  readonly seconds: number;
  readonly maxInFlight: number;
  /** v3 */
  readonly url?: string;
  readonly path?: string;
  readonly body?: string;
  /** sql */
  readonly databaseUrl?: string;
  readonly accountId?: number;
  readonly ownerId?: number;
  readonly lastName?: string;
}

/** One write: when it was due, when its answer had fully arrived (wall clock ms), its status (sql: 201 or 0) and the created record's id. */
export interface PacedResult {
  readonly due: number;
  readonly done: number;
  readonly status: number;
  readonly id: number | null;
}

export interface PacedRun {
  readonly results: PacedResult[];
  /** Slots not written because `maxInFlight` writes were unfinished. */
  readonly skipped: number;
  /** What the first failed write said (an SQL error, a status and body), if one failed. */
  readonly firstError?: string;
}

const wallNow = () => performance.timeOrigin + performance.now();

function pace(spec: PacedSpec, write: (due: number) => Promise<PacedResult & { error?: string }>): Promise<PacedRun> {
  const total = Math.round(spec.rate * spec.seconds);
  const interval = 1000 / spec.rate;
  const results: PacedResult[] = [];
  return new Promise((resolve) => {
    const start = wallNow();
    let slot = 0;
    let skipped = 0;
    let inFlight = 0;
    let scheduled = true;
    let firstError: string | undefined;
    const settle = () => {
      if (!scheduled && inFlight === 0) resolve({ results, skipped, firstError });
    };
    // Every tick starts what is due by now, then sleeps until the next slot.
    const tick = () => {
      const now = wallNow();
      while (slot < total && start + slot * interval <= now) {
        const due = start + slot++ * interval;
        if (inFlight >= spec.maxInFlight) {
          skipped++;
          continue;
        }
        inFlight++;
        void write(due).then(({ error, ...r }) => {
          if (error !== undefined) firstError ??= error;
          results.push(r);
          inFlight--;
          settle();
        });
      }
      if (slot < total) setTimeout(tick, Math.max(0, start + slot * interval - wallNow()));
      else {
        scheduled = false;
        settle();
      }
    };
    tick();
  });
}

async function paced(spec: PacedSpec): Promise<PacedRun> {
  if (spec.writer === 'sql') {
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: spec.databaseUrl, max: spec.maxInFlight });
    try {
      return await pace(spec, async (due) => {
        try {
          const { rows } = await pool.query<{ id: number }>(
            `insert into people (account_id, owner_id, first_name, last_name, created_at, updated_at) values ($1, $2, 'Hook', $3, now(), now()) returning id`,
            [spec.accountId, spec.ownerId, spec.lastName],
          );
          return { due, done: wallNow(), status: 201, id: rows[0].id };
        } catch (error) {
          return { due, done: wallNow(), status: 0, id: null, error: error instanceof Error ? error.message : String(error) };
        }
      });
    } finally {
      await pool.end();
    }
  }
  const agent = new Agent({ keepAlive: true, maxSockets: spec.maxInFlight });
  const target = new URL(spec.url!);
  const body = Buffer.from(spec.body!);
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
  const post = (due: number) =>
    new Promise<PacedResult & { error?: string }>((answer) => {
      let answered = false;
      const resolve = (r: PacedResult & { error?: string }) => {
        if (answered) return;
        answered = true;
        answer(r);
      };
      const req = request({ host: target.hostname, port: target.port, path: spec.path, method: 'POST', headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const done = wallNow();
          const text = Buffer.concat(chunks).toString('utf8');
          let id: number | null;
          try {
            const parsed = Number((JSON.parse(text) as { id?: number }).id ?? NaN);
            id = Number.isFinite(parsed) ? parsed : null;
          } catch {
            id = null;
          }
          const status = res.statusCode ?? 0;
          resolve({ due, done, status, id, error: status >= 200 && status <= 299 && id !== null ? undefined : `${status} ${text.slice(0, 300)}` });
        });
        res.on('close', () => resolve({ due, done: wallNow(), status: 0, id: null }));
      });
      req.on('error', (error) => resolve({ due, done: wallNow(), status: 0, id: null, error: error.message }));
      req.end(body);
    });
  try {
    return await pace(spec, post);
  } finally {
    agent.destroy();
  }
}

/** One request in flight per connection, the same for every server measured. */
export const PIPELINING = 1;

serveCommands({
  paced,
  async run(spec: LoadSpec): Promise<LoadResult> {
    const { default: autocannon } = await import('autocannon');
    const result = await autocannon({
      url: spec.url,
      connections: spec.connections,
      pipelining: PIPELINING,
      duration: spec.seconds,
      requests: spec.requests.map((r) => ({ ...r })),
    });
    return {
      rps: result.requests.total / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      mbPerSec: result.throughput.total / result.duration / 1_048_576,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
  },
});
