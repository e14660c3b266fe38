import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDatabase, startEmbeddedPostgres } from '../../src/db/embedded';

export const STATE_FILE = join(__dirname, '..', '..', '.data', 'test-state.json');

/**
 * One throwaway database per test run, on DATABASE_URL's server when set, else on the embedded
 * default. Each test server applies the migrations when it starts (a no-op after the first); the ORM
 * is not loaded here because entity metadata created in this realm would leak into the test realm.
 * Teardown drops the database.
 */
export default async function globalSetup(): Promise<void> {
  let serverUrl = process.env.DATABASE_URL;
  let embedded = false;
  if (!serverUrl) {
    const db = await startEmbeddedPostgres(join(__dirname, '..', '..', '.data'), Number(process.env.EMBEDDED_PG_PORT ?? 54329));
    serverUrl = db.serverUrl;
    embedded = true;
    (globalThis as { __embedded?: unknown }).__embedded = db;
  }
  const name = `crm_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const url = await ensureDatabase(serverUrl, name);
  process.env.TEST_DATABASE_URL = url;
  writeFileSync(STATE_FILE, JSON.stringify({ serverUrl, name, url, embedded }));
}
