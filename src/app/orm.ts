import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { MIGRATIONS } from '../../migrations';
import { ENTITIES } from './entities';
import { checkReadableEntities } from '../db/list-query';
import { RecordVersions } from '../db/record-versions';
import { checkFieldTables } from '../kit/fields';

export interface OrmOptions {
  readonly clientUrl: string;
  readonly debug?: boolean;
  readonly poolMax?: number;
  /** `statement_timeout` of every pooled connection (ms); unset: PostgreSQL's default (none). */
  readonly statementTimeoutMs?: number;
}

export function ormConfig(options: OrmOptions): Options {
  return {
    clientUrl: options.clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    // Versioned records read their new version back after a flush (src/db/record-versions.ts).
    subscribers: [new RecordVersions()],
    // One unit of work per request or job: the global EntityManager must never be used.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    // pg sends it as a start-up parameter, so each pooled session has it before its first query;
    // PostgreSQL then cancels a runaway statement (57014) instead of letting it hold a connection.
    ...(options.statementTimeoutMs ? { driverOptions: { connection: { statement_timeout: options.statementTimeoutMs } } } : {}),
    migrations: {
      tableName: 'mikro_orm_migrations',
      migrationsList: MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      // stdout belongs to the CLI's single JSON line; progress goes to our logger instead.
      silent: true,
    },
    discovery: { warnWhenNoEntities: true },
    // Tables no entity declares, which no schema diff may drop: the job queue's belongs to Agenda's
    // backend (migrations/20261129000002-jobs.ts, read and written by @agendajs/postgres-backend);
    // the change records are written by triggers and read by SQL (migrations/20261203000001-record-changes.ts);
    // webhook deliveries, their attempts and the dispatcher's cursor are kept by jobs in SQL (20261203000003); idempotency keys by src/db/idempotency-keys.ts (20261205000001).
    schemaGenerator: {
      skipTables: [
        'agenda_jobs',
        'record_changes',
        'record_changes_pruned',
        'webhook_deliveries',
        'webhook_attempts',
        'webhook_dispatch',
        'idempotency_keys',
        'exports',
        // bulk imports' tables, kept by the import job in SQL (20261207000001)
        'imports',
        'import_uploads',
        'import_rows',
        'import_errors',
      ],
    },
  };
}

/**
 * Opens the ORM and refuses to go on when an entity has a property the read path
 * (`list-query.ts`) cannot fill from a row, or a field table names a property its entity lacks
 * (kit/fields.ts): found at boot, not as an `undefined` in a response or a value dropped on write.
 */
export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(options));
  try {
    checkReadableEntities(orm.getMetadata(), orm.em.getPlatform());
    const metadata = orm.getMetadata();
    const problems = checkFieldTables((entity) => (metadata.has(entity.name) ? metadata.get(entity.name) : undefined));
    if (problems.length > 0) throw new Error(`The field tables and the entities disagree:\n  ${problems.join('\n  ')}`);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

/**
 * Applies pending migrations; schema changes happen only this way (never schema sync). They run
 * in one transaction without the pool's statement_timeout: building an index on a large table
 * may rightly take longer than any request should.
 */
/** Advisory lock key held while migrating (any constant no other code uses). */
const MIGRATION_LOCK = 7_301_337_001;

export async function migrate(orm: MikroORM): Promise<string[]> {
  const connection = orm.em.getConnection();
  const applied = await connection.transactional(async (trx) => {
    await connection.execute('set local statement_timeout = 0', [], 'run', trx);
    // Several processes (API processes, workers) may start at once on one database: one migrates,
    // the others wait here and then find nothing left to apply.
    await connection.execute('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK], 'run', trx);
    return orm.getMigrator().up({ transaction: trx });
  });
  return applied.map((m) => m.name);
}
