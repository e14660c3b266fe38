import { checkServerConfig, type Config } from '../config/config';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';

/**
 * The database the server uses: DATABASE_URL, else the embedded default — shared with the embedded
 * server `npm start` (or a test run) already runs on the same data folder, since two postmasters
 * cannot share one. `options.database` names a database of its own on that same server (created
 * when missing), e.g. the benchmark's `crm_bench`, so its data never mixes with the real one.
 * Where the embedded server cannot run it throws EmbeddedUnavailableError: one line saying what to do.
 */
export async function resolveDatabase(
  config: Config,
  options: { database?: string; benchmark?: boolean } = {},
): Promise<{ url: string; embedded: EmbeddedDatabase | null }> {
  const name = options.database ?? 'crm';
  if (config.databaseUrl) return { url: options.database ? await ensureDatabase(config.databaseUrl, name) : config.databaseUrl, embedded: null };
  // The CLI and `npm run migrate` refuse an embedded database in production, as `npm start` does;
  // the benchmark runs its servers with NODE_ENV=production on a database of its own, embedded or not.
  if (!options.benchmark) checkServerConfig(config);
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
  try {
    return { url: await ensureDatabase(embedded.serverUrl, name), embedded };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}
