import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { dirname } from 'node:path';
import { serveCommands } from './child-process';
import { installStatementCounter, startRecording, stopRecording } from './statement-counter';
import type { BenchData, BenchSize } from './seed';

/**
 * One server under test in a process of its own (bench/README.md): `app` (startServer, which also
 * seeds) or `raw` (bench/raw-baseline.ts). Started by bench.ts, driven over IPC.
 */

export interface ServerStart {
  /** `worker`: the jobs alone (as `npm run worker`), beside an app started with `runWorker: false`. */
  readonly role: 'app' | 'raw' | 'worker';
  readonly databaseUrl: string;
  /** app only: the data to make sure of before serving; none seeded without it (bench/import.ts makes its own). */
  readonly size?: BenchSize;
  /** app only: whether it runs the job worker too (RUN_WORKER; default true). */
  readonly runWorker?: boolean;
}

/** CPU time this process used and responses it finished, since it started. */
export interface ServerUsage {
  readonly cpuMicros: number;
  readonly responses: number;
}

export interface ServerReady {
  readonly url: string;
  readonly pgCopies: number;
  readonly data?: BenchData;
}

let close: () => Promise<void> = async () => undefined;
let responses = 0;

/**
 * Counted where every response ends, whichever framework wrote it: with the CPU time, the cost of
 * one request in this process, which other load on the machine changes far less than req/s.
 */
function countResponses(): void {
  const end = ServerResponse.prototype.end as (...args: unknown[]) => ServerResponse;
  ServerResponse.prototype.end = function countedEnd(this: ServerResponse, ...args: unknown[]) {
    if (!this.writableEnded) responses++;
    return end.apply(this, args);
  } as typeof ServerResponse.prototype.end;
}
let profiler: Session | null = null;

async function start({ role, databaseUrl, size, runWorker = true }: ServerStart): Promise<ServerReady> {
  // Before anything that could open a connection: every statement must pass the counter.
  const pgCopies = installStatementCounter();
  countResponses();
  if (role === 'raw') {
    const { startRawBaseline } = await import('./raw-baseline');
    const raw = await startRawBaseline(databaseUrl);
    close = () => raw.close();
    return { url: raw.url, pgCopies };
  }
  const { loadConfig } = await import('../src/config/config');
  const { setLogLevel } = await import('../src/common/logger');
  const { startServer } = await import('../src/server');
  const { ensureSeeded } = await import('./seed');
  const limit = '1000000000';
  // BENCH_APP_LOG_LEVEL=info shows the app's request and job lines (debugging the bench, not measuring).
  const logLevel = process.env.BENCH_APP_LOG_LEVEL || 'error';
  const config = loadConfig({
    ...process.env,
    RUN_WORKER: String(runWorker || role === 'worker'),
    // Request lines are logged at info: off, errors still show.
    LOG_LEVEL: logLevel,
    RATE_LIMIT_PER_SECOND: limit,
    RATE_LIMIT_BURST: limit,
    APP_RATE_LIMIT_PER_SECOND: limit,
    APP_RATE_LIMIT_BURST: limit,
    // The GraphQL deals list selects every deal's people (up to 200 each), which costs 201 units:
    // as for the rate limits, the bench measures throughput, not the limits.
    GRAPHQL_MAX_COST: limit,
  });
  setLogLevel(logLevel as Parameters<typeof setLogLevel>[0]);
  if (role === 'worker') {
    const { openOrm } = await import('../src/app/orm');
    const { startJobs } = await import('../src/jobs');
    const { createDocumentStorage } = await import('../src/modules/documents/storage');
    const orm = await openOrm({ clientUrl: databaseUrl, statementTimeoutMs: config.statementTimeoutMs });
    const jobs = await startJobs(config, databaseUrl, orm, 'worker', createDocumentStorage(config));
    close = async () => {
      await jobs.close(config.shutdownGraceMs);
      await orm.close(true);
    };
    return { url: '', pgCopies };
  }
  const server = await startServer(config, databaseUrl, { port: 0, host: '127.0.0.1' });
  close = () => server.close();
  const data = size ? await ensureSeeded(server.orm, databaseUrl, size) : undefined;
  return { url: server.url, pgCopies, data };
}

serveCommands(
  {
    start,
    record: () => startRecording(),
    recorded: () => stopRecording(),
    memory: () => process.memoryUsage(),
    /** The heap in use after a full collection: what the process holds, not what it has yet to collect. */
    async 'heap-after-gc'() {
      const session = new Session();
      session.connect();
      try {
        await session.post('HeapProfiler.collectGarbage');
      } finally {
        session.disconnect();
      }
      return process.memoryUsage().heapUsed;
    },
    usage: (): ServerUsage => {
      const cpu = process.cpuUsage();
      return { cpuMicros: cpu.user + cpu.system, responses };
    },
    async 'profile-start'() {
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.post('Profiler.start');
    },
    async 'profile-stop'(file: string) {
      const { profile } = await profiler!.post('Profiler.stop');
      profiler!.disconnect();
      profiler = null;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
    },
  },
  () => close(),
);
