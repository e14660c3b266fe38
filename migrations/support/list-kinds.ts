import type { Migration } from '@mikro-orm/migrations';

/**
 * The kinds of the admin lists that are a name in an order are held by `list_items_kind_check`,
 * which MikroORM declares from ListKind (src/modules/lists/admin-lists.ts), listing the kinds in
 * their declared order; test/integration/schema-migrations.test.ts holds the migrations to it. A new
 * list's migration adds its kind after those the check holds, without retyping them (a migration is
 * never edited once applied, so it cannot read the declarations of a later day):
 *
 *   override async up(): Promise<void> {
 *     await addListKinds(this, 'deal_priority');
 *   }
 *
 *   override async down(): Promise<void> {
 *     await removeListKinds(this, 'deal_priority');
 *   }
 */

const CHECK = 'list_items_kind_check';

/** Written into the check's SQL: lower snake case only, as admin-lists.ts requires of a kind. */
const KIND = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** The kinds the check holds now, in its order (PostgreSQL shows it as `kind = ANY (ARRAY['lead_status'::text, ...])`). */
async function checkedKinds(migration: Migration): Promise<string[]> {
  const rows = await migration.execute(
    `select pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = 'list_items'::regclass and conname = ?`,
    [CHECK],
  );
  if (rows.length !== 1) throw new Error(`list_items has no ${CHECK} to extend`);
  return [...String(rows[0].definition).matchAll(/'([^']*)'::/g)].map((m) => m[1]);
}

/** The check as MikroORM writes it for the entity's enum (the same text its schema diff reads back). */
function checkOf(migration: Migration, kinds: readonly string[]): void {
  migration.addSql(`alter table "list_items" drop constraint if exists "${CHECK}"`);
  migration.addSql(`alter table "list_items" add constraint "${CHECK}" check("kind" in (${kinds.map((k) => `'${k}'`).join(', ')}))`);
}

/** Adds the kinds of new lists, in the order given, after those the check holds. */
export async function addListKinds(migration: Migration, ...kinds: string[]): Promise<void> {
  const checked = await checkedKinds(migration);
  for (const kind of kinds) {
    if (!KIND.test(kind)) throw new Error(`${kind}: a list kind is lower snake case (deal_priority)`);
    if (checked.includes(kind)) throw new Error(`${kind} is already in ${CHECK}`);
  }
  checkOf(migration, [...checked, ...kinds]);
}

/** Takes the kinds out again (a rollback): their items are deleted (foreign keys to them are set null or cascade). */
export async function removeListKinds(migration: Migration, ...kinds: string[]): Promise<void> {
  const checked = await checkedKinds(migration);
  for (const kind of kinds) if (!KIND.test(kind)) throw new Error(`${kind}: a list kind is lower snake case (deal_priority)`);
  migration.addSql(`delete from "list_items" where "kind" in (${kinds.map((k) => `'${k}'`).join(', ')})`);
  checkOf(
    migration,
    checked.filter((k) => !kinds.includes(k)),
  );
}
