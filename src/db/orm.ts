import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { MIGRATIONS } from '../../migrations';
import { ENTITIES } from './entities';

export interface OrmOptions {
  readonly clientUrl: string;
  readonly debug?: boolean;
  readonly poolMax?: number;
}

export function ormConfig(options: OrmOptions): Options {
  return {
    clientUrl: options.clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    // One unit of work per request or job: the global EntityManager must never be used.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
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
  };
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

/** Applies pending migrations; schema changes happen only this way (never schema sync). */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
