import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { logger, setLogLevel } from './common/logger';
import { resolveDatabase } from './cli/database';
import { EmbeddedUnavailableError } from './db/embedded';
import { migrate, openOrm } from './app/orm';
import { startJobs } from './jobs';
import { createDocumentStorage } from './modules/documents/storage';

/**
 * `npm run worker`: a jobs-only process (no HTTP), for running workers apart from the API
 * processes (those set `RUN_WORKER=false`). Same database as the API (DATABASE_URL, else the
 * embedded default `npm start` runs); migrates first, as an API process does. SIGTERM/SIGINT:
 * stop taking jobs, let running ones finish within SHUTDOWN_GRACE_MS, exit.
 */
async function main(): Promise<void> {
  const config = { ...loadConfig(), runWorker: true };
  setLogLevel(config.logLevel);
  const { url, embedded } = await resolveDatabase(config);
  const orm = await openOrm({ clientUrl: url, statementTimeoutMs: config.statementTimeoutMs });
  let jobs;
  try {
    await migrate(orm);
    jobs = await startJobs(config, url, orm, 'worker', createDocumentStorage(config));
  } catch (error) {
    await orm.close(true);
    await embedded?.stop();
    throw error;
  }
  process.stdout.write(`CRM worker running (pid ${process.pid})\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('worker shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('worker shutdown did not finish in time', { graceMs: config.shutdownGraceMs });
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    timer.unref();
    try {
      await jobs.close(config.shutdownGraceMs);
      await orm.close(true);
      await embedded?.stop();
      process.exit(0);
    } catch (error) {
      logger.error('worker shutdown failed', { error: String(error) });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  if (error instanceof EmbeddedUnavailableError || error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  logger.error('worker failed to start', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
