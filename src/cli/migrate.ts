import 'reflect-metadata';
import { loadConfig } from '../config/config';
import { logger } from '../common/logger';
import { migrate, openOrm } from '../app/orm';
import { resolveDatabase } from './database';

/** `npm run migrate`: applies pending migrations to the configured database. */
async function main(): Promise<void> {
  const { url, embedded } = await resolveDatabase(loadConfig());
  const orm = await openOrm({ clientUrl: url, poolMax: 2 });
  try {
    const applied = await migrate(orm);
    process.stdout.write(JSON.stringify({ applied }) + '\n');
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

main().catch((error) => {
  logger.error('migration failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
