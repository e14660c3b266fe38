import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Config } from '../config/config';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';

/**
 * The database the server uses: DATABASE_URL, else the embedded default — reusing the embedded
 * server when `npm start` already runs it (two postmasters cannot share a data folder).
 * `options.database` names a database of its own on that same server (created when missing), e.g.
 * the benchmark's `crm_bench`, so its data never mixes with the real one.
 */
export async function resolveDatabase(config: Config, options: { database?: string } = {}): Promise<{ url: string; embedded: EmbeddedDatabase | null }> {
  const name = options.database ?? 'crm';
  if (config.databaseUrl) return { url: options.database ? await ensureDatabase(config.databaseUrl, name) : config.databaseUrl, embedded: null };
  const passwordFile = join(config.dataDir, 'pg-password');
  if (existsSync(passwordFile)) {
    const serverUrl = `postgres://postgres:${readFileSync(passwordFile, 'utf8').trim()}@127.0.0.1:${config.embeddedPgPort}/postgres`;
    const probe = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 1000 });
    try {
      await probe.connect();
      await probe.end();
      return { url: await ensureDatabase(serverUrl, name), embedded: null };
    } catch {
      await probe.end().catch(() => undefined);
    }
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
  return { url: await ensureDatabase(embedded.serverUrl, name), embedded };
}
