import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Config } from '../config/config';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';

/**
 * The database the server uses: DATABASE_URL, else the embedded default — reusing the embedded
 * server when `npm start` already runs it (two postmasters cannot share a data folder).
 */
export async function resolveDatabase(config: Config): Promise<{ url: string; embedded: EmbeddedDatabase | null }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  const passwordFile = join(config.dataDir, 'pg-password');
  if (existsSync(passwordFile)) {
    const serverUrl = `postgres://postgres:${readFileSync(passwordFile, 'utf8').trim()}@127.0.0.1:${config.embeddedPgPort}/postgres`;
    const probe = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 1000 });
    try {
      await probe.connect();
      await probe.end();
      return { url: await ensureDatabase(serverUrl, 'crm'), embedded: null };
    } catch {
      await probe.end().catch(() => undefined);
    }
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
  return { url: await ensureDatabase(embedded.serverUrl, 'crm'), embedded };
}
