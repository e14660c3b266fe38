import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';

/**
 * A database of the test file's own, on the run's server: for tests whose worker acts on every row
 * of its database (the sweep enqueues all due mail and documents), which must not find, or change,
 * what other test files left in the shared one.
 */
export async function ownDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(process.env.TEST_DATABASE_URL!);
  server.pathname = '/postgres';
  const name = `crm_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = await ensureDatabase(server.toString(), name);
  return { url, drop: () => dropDatabase(server.toString(), name) };
}
