import 'reflect-metadata';
import { checkServerConfig, ConfigError, loadConfig } from './config/config';
import { logger, setLogLevel } from './common/logger';
import { resolveDatabase } from './cli/database';
import { refuseSecondStart, StartRefusedError } from './cli/running-server';
import { EmbeddedUnavailableError } from './db/embedded';
import { saveDemoKey } from './db/demo-key';
import { seedDemo } from './app/demo-seed';
import { startServer } from './server';

/** `npm start`: config → database (DATABASE_URL, else the embedded default) → server; clean shutdown on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  // Before anything touches the data folder or starts a database (production needs DATABASE_URL).
  checkServerConfig(config);
  setLogLevel(config.logLevel);
  await refuseSecondStart(config);
  const { url: databaseUrl, embedded } = await resolveDatabase(config);
  // Healthy means ready to serve what start-up announces: /healthz answers 503 until the demo
  // account exists, its key file is written and everything below is printed.
  let announced = false;
  const server = await startServer(config, databaseUrl, { isReady: () => announced }).catch(async (error: unknown) => {
    await embedded?.stop();
    throw error;
  });
  try {
    const base = `http://127.0.0.1:${config.port}`;
    if (embedded) {
      const demo = await seedDemo(server.orm);
      if (demo) {
        saveDemoKey(config, demo.apiKey);
        process.stdout.write(`Demo account created. Admin API key: ${demo.apiKey} (the explorer fills it in on this machine)\n`);
      }
    }
    process.stdout.write(
      `CRM listening on ${server.url}\n  v3 REST base URL: ${base}/api/v3\n  GraphQL endpoint: ${base}/graphql\n` +
        `  Explorer (GraphiQL, works offline): ${base}/explorer\n  Apollo Sandbox (needs internet): ${base}/explorer/sandbox\n`,
    );
    if (embedded) process.stdout.write(`  Embedded PostgreSQL: ${embedded.databaseDir} (127.0.0.1:${new URL(embedded.serverUrl).port})\n`);
  } catch (error) {
    // A half-started server (no demo key) must not keep answering: stop it and its database.
    await server.close().catch(() => undefined);
    await embedded?.stop();
    throw error;
  }
  announced = true;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    // The last resort: past the grace period connections are cut, and the remaining steps (Apollo,
    // Redis, the pool waiting for a statement to end) get a few seconds before the process gives up.
    const timer = setTimeout(() => {
      logger.error('shutdown did not finish in time', { graceMs: config.shutdownGraceMs });
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    timer.unref();
    try {
      await server.close();
      await embedded?.stop();
      process.exit(0);
    } catch (error) {
      logger.error('shutdown failed', { error: String(error) });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  // Expected refusals are one line saying what to do, not a stack trace.
  if (error instanceof StartRefusedError || error instanceof EmbeddedUnavailableError || error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  logger.error('failed to start', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
