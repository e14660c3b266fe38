import 'reflect-metadata';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import { operationsSource } from '../rest-facade';
import type { Config } from './config/config';
import { migrate, openOrm } from './app/orm';
import { compileOperations } from './graphql/executor';
import { applyFieldRateLimits, MemoryWindowStore, RedisWindowStore } from './graphql/field-rate-limit';
import { applyRateLimit, createRateLimiter, MemoryBuckets, RedisBuckets, type RateLimiter } from './graphql/rate-limit';
import { createSchema } from './app/schema';
import { logger } from './common/logger';
import { createApp } from './http/app';
import { observeServer } from './http/metrics';
import { startJobs, type Jobs } from './jobs';
import { systemClock, type Clock } from './common/clock';
import { createDocumentStorage, setDocumentStorage } from './modules/documents/storage';
import { AuthFailureLimiter } from './http/auth';
import { allowFetchTargets } from './modules/documents/fetch/fetch-target';
import { documentFetchOptions } from './modules/documents/document.fetch-job';

export interface RunningServer {
  readonly url: string;
  readonly orm: MikroORM;
  readonly jobs: Jobs;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly port?: number;
  readonly host?: string;
  /**
   * What the caller still has to do before the server is healthy, besides the migrations: `npm
   * start` seeds the demo account and prints its key after the server listens, and /healthz
   * answers 503 until this says true (a script waiting for health must find what start-up announces).
   */
  readonly isReady?: () => boolean;
  /** The time of the service's rules; tests pin it (src/common/clock.ts). */
  readonly clock?: Clock;
}

/** Boot order: orm → migrations → schema (rate-limited: the bucket, then fields' windows) → compiled facade operations → http. */
export async function startServer(config: Config, databaseUrl: string, options: StartOptions = {}): Promise<RunningServer> {
  const orm = await openOrm({ clientUrl: databaseUrl, statementTimeoutMs: config.statementTimeoutMs });
  let ready = false;
  let limiter: RateLimiter | null = null;
  let jobs: Jobs | null = null;
  // The pool, the job table and pending webhooks, read by /metrics until this server closes.
  const unobserve = observeServer(orm, config);
  try {
    await migrate(orm);
    const documentStorage = createDocumentStorage(config);
    // Webhook targets and import URLs are checked at create against the document fetches' allow-list.
    allowFetchTargets(documentFetchOptions(config).allowAddress);
    // A deleted document's bytes are removed after its commit, by the service that deletes it.
    setDocumentStorage(documentStorage);
    jobs = await startJobs(config, databaseUrl, orm, config.runWorker ? 'api+worker' : 'api', documentStorage);
    ready = true;
    // One Redis connection for the buckets and the fields' windows; the bucket backend closes it.
    const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : null;
    const backend = redis ? new RedisBuckets(redis, `${config.redisPrefix}ratelimit:`) : new MemoryBuckets();
    limiter = createRateLimiter(backend, config.rateLimit);
    const windows = redis ? new RedisWindowStore(redis, `${config.redisPrefix}fieldlimit:`) : new MemoryWindowStore();
    // The bucket is charged first (it wraps the root fields last), then a field's own window.
    const schema = applyRateLimit(applyFieldRateLimits(createSchema(), windows, config.fieldRateLimits), limiter);
    const operations = compileOperations(schema, operationsSource(schema), { checked: config.graphqlStrictLeaves });
    const authFailures = new AuthFailureLimiter(backend, config.authFailureLimit);
    const { app, apollo } = await createApp({
      orm,
      config,
      schema,
      limiter,
      authFailures,
      runOperation: operations.run,
      jobs: jobs.queue,
      documentStorage,
      clock: options.clock ?? systemClock,
      isReady: () => ready && (options.isReady?.() ?? true),
    });
    const server: Server = await new Promise((resolve, reject) => {
      // Express 5 hands a listen failure (port in use, ...) to the callback.
      const s = app.listen(options.port ?? config.port, options.host ?? config.host, (error?: Error) => (error ? reject(error) : resolve(s)));
    });
    server.keepAliveTimeout = 65_000;
    const drain = drainer(server, config.shutdownGraceMs);
    const address = server.address() as AddressInfo;
    const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
    return {
      url: `http://${host}:${address.port}`,
      orm,
      jobs,
      async close() {
        await drain();
        // After the last request (nothing enqueues any more); running jobs get the same grace.
        await jobs?.close(config.shutdownGraceMs);
        await apollo.stop();
        await limiter?.close();
        unobserve();
        await orm.close(true);
      },
    };
  } catch (error) {
    await jobs?.close(0).catch(() => undefined);
    await limiter?.close().catch(() => undefined);
    unobserve();
    await orm.close(true);
    throw error;
  }
}

/**
 * Graceful HTTP shutdown: stop accepting, close idle keep-alive connections at once, let in-flight
 * requests finish (their responses say `Connection: close`, so their sockets end with them; without
 * it a finished keep-alive socket would hold `server.close()` for keepAliveTimeout), and after
 * `graceMs` cut whatever is still open.
 */
function drainer(server: Server, graceMs: number): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  // Before express's listener, so every response is known before it can be written.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) closeIdleSoon();
    });
  });
  return () =>
    new Promise<void>((resolve) => {
      draining = true;
      const cut = setTimeout(() => {
        logger.warn('shutdown grace period over: closing the remaining connections', { inFlight: inFlight.size, graceMs });
        server.closeAllConnections();
      }, graceMs);
      cut.unref();
      server.close(() => {
        clearTimeout(cut);
        resolve();
      });
      // Logged once the listening socket is closed: a client that reads it knows new connections are refused.
      logger.info('stopped accepting connections', { inFlight: inFlight.size });
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
    });
}
