import type { MigrationObject } from '@mikro-orm/core';
import { readdirSync } from 'node:fs';

/**
 * A migration's file: `<yyyymmddhhmmss>-<what-it-does>.ts` (`.js` once built), exporting one class
 * named `Migration<yyyymmddhhmmss><WhatItDoes>`. Files are applied in the order of their names.
 */
const MIGRATION_FILE = /^(\d{14})-[a-z0-9]+(?:-[a-z0-9]+)*\.(?:ts|js)$/;

/** Helpers migrations share (e.g. support/list-kinds.ts), not migrations themselves. */
const SUPPORT = 'support';

/**
 * Every migration of this folder, in order: adding one is adding its file (never edit one that
 * was applied). A file in the folder that is not a migration, or a migration whose class does not
 * carry its timestamp, stops the boot with the file's name, so none is skipped silently.
 */
export function migrationsIn(dir: string, files: readonly string[] = readdirSync(dir)): MigrationObject[] {
  const found: MigrationObject[] = [];
  for (const file of [...files].sort()) {
    if (file === SUPPORT || file.startsWith('index.') || file.endsWith('.d.ts') || file.endsWith('.map')) continue;
    const match = MIGRATION_FILE.exec(file);
    if (!match) throw new Error(`migrations/${file}: not a migration file name (<yyyymmddhhmmss>-<what-it-does>.ts)`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the folder's files, found at run time
    const exported = Object.entries(require(`${dir}/${file}`) as Record<string, unknown>).filter(
      ([name, value]) => name.startsWith('Migration') && typeof value === 'function',
    );
    if (exported.length !== 1 || !exported[0][0].startsWith(`Migration${match[1]}`)) {
      throw new Error(`migrations/${file}: must export exactly one class named Migration${match[1]}<WhatItDoes>`);
    }
    const [name, cls] = exported[0];
    found.push({ name, class: cls as MigrationObject['class'] });
  }
  return found;
}

/** Applied in this order. */
export const MIGRATIONS: MigrationObject[] = migrationsIn(__dirname);
