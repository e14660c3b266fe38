import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { resolveDatabase } from '../../src/cli/database';
import { loadConfig } from '../../src/config/config';

/**
 * One throwaway database per test run: on DATABASE_URL's server when set, else on the embedded
 * default (reusing it when `npm start` already runs it, as the CLI does). Each test server applies
 * the migrations when it starts (a no-op after the first); the ORM is not loaded here because
 * entity metadata created in this realm would leak into the test realm. Teardown drops it.
 */
/** Whether a Redis answers PING at `url` within a second. */
function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export default async function globalSetup(): Promise<void> {
  // A mutation run (npm run test:mutation) calls jest once per mutant in the same worker process:
  // the worker's database, made on its first run, serves every later one (scripts/mutation.js
  // drops them all at the end), instead of a fresh database and migrations per mutant.
  const worker = process.env.STRYKER_MUTATOR_WORKER;
  if (worker !== undefined && process.env.TEST_DATABASE_URL) return;

  // The cross-process rate-limit tests need a Redis. CI requires one (REQUIRE_REDIS=1, so they
  // can never be skipped there); a machine without one skips just those tests, saying so.
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await redisAnswers(redisUrl)) process.env.TEST_REDIS_URL = redisUrl;
  else if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but no Redis answers at ${redisUrl}`);
  else process.stderr.write(`No Redis at ${redisUrl}: the cross-process rate-limit tests are skipped.\n`);

  const name =
    worker !== undefined ? `crm_mutation_${process.pid}_${randomBytes(3).toString('hex')}` : `crm_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const { url, embedded } = await resolveDatabase(loadConfig({ ...process.env, LOG_LEVEL: 'error' }), { database: name });
  (globalThis as { __embedded?: unknown }).__embedded = embedded;
  const server = new URL(url);
  server.pathname = '/postgres';
  // Test files (in band, or workers started after this) inherit the environment; teardown reads it too.
  process.env.TEST_DATABASE_URL = url;
  process.env.CRM_TEST_DATABASE = JSON.stringify({ serverUrl: server.toString(), name });
}
