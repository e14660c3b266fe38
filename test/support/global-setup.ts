import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { resolveDatabase } from '../../src/cli/database';
import { loadConfig } from '../../src/config/config';

/**
 * One throwaway database per test run: on DATABASE_URL's server when set, else on the embedded
 * default (reusing it when `npm start` already runs it, as the CLI does). Each test server applies
 * the migrations when it starts (a no-op after the first); the ORM is not loaded here because
 * entity metadata created in this realm would leak into the test realm. Teardown drops it.
 */
export default async function globalSetup(): Promise<void> {
  const name = `crm_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const { url, embedded } = await resolveDatabase(loadConfig({ ...process.env, LOG_LEVEL: 'error' }), { database: name });
  (globalThis as { __embedded?: unknown }).__embedded = embedded;
  const server = new URL(url);
  server.pathname = '/postgres';
  // Test files (in band, or workers started after this) inherit the environment; teardown reads it too.
  process.env.TEST_DATABASE_URL = url;
  process.env.CRM_TEST_DATABASE = JSON.stringify({ serverUrl: server.toString(), name });
}
