import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';
import { migrate, openOrm } from '../../src/app/orm';

/**
 * Entities and migrations must not drift: on a fresh, empty database, the migrations alone must
 * build exactly the schema the entity metadata describes. Schema changes only ever happen through
 * migrations (never schema sync), so a difference here is either an entity declaring something no
 * migration creates (the ORM would believe in an index, default or FK rule that is not there) or a
 * migration creating something the entities do not declare (which the ORM's next generated
 * migration would silently drop).
 *
 * Two checks: the ORM's own schema diff (what `getUpdateSchemaSQL` would change), and, because
 * that diff compares expression indexes by name only, a second database created from the entity
 * metadata alone (`createSchema`) whose catalog (columns, indexes, constraints) must equal the
 * migrated one's, as PostgreSQL itself prints them.
 */
const serverUrl = (() => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = '/postgres';
  return url.toString();
})();
const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
const migratedName = `crm_schema_migrated_${suffix}`;
const declaredName = `crm_schema_declared_${suffix}`;

/** Whitespace is not a difference. */
const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim();

async function catalog(orm: MikroORM): Promise<Record<string, string[]>> {
  const conn = orm.em.getConnection();
  const rows = async (sql: string) => (await conn.execute<Array<{ line: string }>>(sql)).map((r) => r.line).sort();
  // The migrations' own table, the job queue's (Agenda's backend declares it, not an entity) and the
  // change records' and webhook deliveries' (written by triggers and jobs in SQL: no entity; migrations 20261203000001, -3), and the idempotency keys' (src/db/idempotency-keys.ts, migration 20261205000001), the exports' (src/modules/exports, migration 20261207000002) and the imports' (src/modules/imports, migration 20261207000001).
  const ours = `not in ('mikro_orm_migrations', 'agenda_jobs', 'record_changes', 'record_changes_pruned', 'webhook_deliveries', 'webhook_attempts', 'webhook_dispatch', 'idempotency_keys', 'exports', 'imports', 'import_uploads', 'import_rows', 'import_errors')`;
  return {
    columns:
      await rows(`select table_name || '.' || column_name || ' ' || format_type(a.atttypid, a.atttypmod) || case when c.is_nullable = 'NO' then ' not null' else '' end || coalesce(' default ' || c.column_default, '') as line
      from information_schema.columns c
      join pg_attribute a on a.attrelid = ('public.' || quote_ident(c.table_name))::regclass and a.attname = c.column_name
      where c.table_schema = 'public' and c.table_name ${ours}`),
    indexes: await rows(`select indexdef as line from pg_indexes where schemaname = 'public' and tablename ${ours}`),
    constraints: await rows(`select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
      from pg_constraint where connamespace = 'public'::regnamespace and conrelid::regclass::text ${ours}`),
    extensions: await rows(`select extname as line from pg_extension`),
  };
}

describe('migrations build the schema the entities declare', () => {
  let migrated: MikroORM | null = null;
  let declared: MikroORM | null = null;

  beforeAll(async () => {
    migrated = await openOrm({ clientUrl: await ensureDatabase(serverUrl, migratedName), poolMax: 2 });
    await migrate(migrated);
    declared = await openOrm({ clientUrl: await ensureDatabase(serverUrl, declaredName), poolMax: 2 });
    // The one thing entities cannot declare: the extension the trigram indexes need.
    await declared.em.getConnection().execute('create extension if not exists pg_trgm');
    await declared.getSchemaGenerator().createSchema();
  }, 60_000);

  afterAll(async () => {
    await migrated?.close(true);
    await declared?.close(true);
    await dropDatabase(serverUrl, migratedName);
    await dropDatabase(serverUrl, declaredName);
  });

  it('starts from an empty database: every migration applies and is recorded', async () => {
    const rows = await migrated!.em.getConnection().execute<Array<{ name: string }>>('select name from mikro_orm_migrations order by id');
    expect(rows.map((r) => r.name)).toEqual(migrated!.config.get('migrations').migrationsList!.map((m) => m.name));
  });

  it('leaves no difference between the migrated database and the entity metadata', async () => {
    const diff = await migrated!.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
    // Shown in full on failure: each statement names what drifted.
    expect(squash(diff)).toBe('');
  });

  it('has no difference the other way round either (a generated migration would be empty, up and down)', async () => {
    const { up, down } = await migrated!.getSchemaGenerator().getUpdateSchemaMigrationSQL({ wrap: false, safe: false, dropTables: true });
    expect(squash(up)).toBe('');
    expect(squash(down)).toBe('');
  });

  it('matches, column by column and index by index, a database created from the entities alone', async () => {
    expect(await catalog(migrated!)).toEqual(await catalog(declared!));
  });
});
