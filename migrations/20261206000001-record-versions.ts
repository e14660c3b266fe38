import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26 §2: a version per record, for conditional writes (v3 `If-Match`, GraphQL
 * `expectedVersion`), and the account setting that requires them.
 *
 * - `lock_version` on every table whose changes are recorded (20261203000001): 1 when inserted,
 *   one more by a trigger on every update that changes a field the change records would show, so
 *   no write path escapes it (the ORM's flushes, services' and jobs' SQL, a document's fetch). An
 *   update of only what the change records leave out (`updated_at`, a fetch's lease) keeps it.
 * - A deal's people and collaborators are fields of the deal: a statement that adds or removes
 *   them moves the deal's version too.
 * - The change records leave `lock_version` out of their changes and tombstones.
 * - `accounts.require_preconditions`: the account's updates and deletes of these records must say
 *   which version they change (428 on v3 without `If-Match`).
 */
const VERSIONED: ReadonlyArray<{ table: string; skip: readonly string[] }> = [
  { table: 'deals', skip: ['last_modified_by_id', 'viewed_at'] },
  { table: 'people', skip: ['viewed_at'] },
  { table: 'companies', skip: [] },
  { table: 'notes', skip: [] },
  { table: 'comments', skip: [] },
  { table: 'calendar_entries', skip: [] },
  {
    table: 'documents',
    skip: ['storage_key', 'public_token', 'public_token_digest', 'fetch_generation', 'fetch_attempts', 'fetch_lease_until', 'etag'],
  },
  { table: 'account_notifications', skip: [] },
];

const ALWAYS_SKIPPED = ['id', 'account_id', 'created_at', 'updated_at', 'lock_version'];

const DEAL_SETS = ['deal_people', 'deal_collaborators'];

/** The version trigger's function as this migration makes it (20261207000005 replaces it, and its down puts this one back). */
export const RECORD_VERSION_BUMP_V1 = `"record_version_bump"() returns trigger language plpgsql as $$
      declare
        v_skip text[] := TG_ARGV[0]::text[];
      begin
        if (to_jsonb(NEW) - v_skip) is distinct from (to_jsonb(OLD) - v_skip) then
          NEW.lock_version := OLD.lock_version + 1;
        elsif NEW.lock_version < OLD.lock_version then
          NEW.lock_version := OLD.lock_version;
        end if;
        return NEW;
      end
    $$`;

export class Migration20261206000001RecordVersions extends Migration {
  override async up(): Promise<void> {
    // A field the change records show changed: one more; else as written (never lower).
    this.addSql(`create function ${RECORD_VERSION_BUMP_V1}`);
    for (const { table, skip } of VERSIONED) {
      this.addSql(`alter table "${table}" add column "lock_version" int not null default 1`);
      this.addSql(
        `create trigger "${table}_version" before update on "${table}" for each row execute function record_version_bump('{${[...ALWAYS_SKIPPED, ...skip].join(',')}}')`,
      );
    }
    // A deal's set changed: the deal's version moves (its own trigger leaves an explicit bump be).
    // The deals are locked in id order first: two statements touching overlapping sets of deals
    // (a person's dealIds written twice at once) then wait for each other instead of deadlocking.
    this.addSql(`create function "record_deal_set_version"() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'INSERT' then
          update deals set lock_version = lock_version + 1
           where id in (select d.id from deals d where d.id in (select deal_id from new_rows) order by d.id for no key update);
        else
          update deals set lock_version = lock_version + 1
           where id in (select d.id from deals d where d.id in (select deal_id from old_rows) order by d.id for no key update);
        end if;
        return null;
      end
    $$`);
    for (const table of DEAL_SETS) {
      this.addSql(
        `create trigger "${table}_version_insert" after insert on "${table}" referencing new table as new_rows for each statement execute function record_deal_set_version()`,
      );
      this.addSql(
        `create trigger "${table}_version_delete" after delete on "${table}" referencing old table as old_rows for each statement execute function record_deal_set_version()`,
      );
    }
    // The change records never show the version (as record_change_diff and _tombstone of 20261203000001, with lock_version left out).
    this.addSql(`create or replace function "record_change_diff"(o jsonb, n jsonb, skip text[]) returns jsonb language sql immutable as $$
      select jsonb_object_agg(k, jsonb_build_array(record_change_value(ov), record_change_value(nv)))
        from (
          select key as k, o -> key as ov, n -> key as nv from jsonb_object_keys(n) key
           where key <> 'custom_fields' and key <> 'lock_version' and key <> all(skip) and (o -> key) is distinct from (n -> key)
          union all
          select 'custom_fields.' || key, coalesce(o -> 'custom_fields', '{}') -> key, coalesce(n -> 'custom_fields', '{}') -> key
            from (select jsonb_object_keys(coalesce(o -> 'custom_fields', '{}')) union select jsonb_object_keys(coalesce(n -> 'custom_fields', '{}'))) keys(key)
           where 'custom_fields' <> all(skip) and (coalesce(o -> 'custom_fields', '{}') -> key) is distinct from (coalesce(n -> 'custom_fields', '{}') -> key)
        ) d
    $$`);
    this.addSql(`create or replace function "record_change_tombstone"(o jsonb, skip text[]) returns jsonb language sql immutable as $$
      select jsonb_object_agg(key, record_change_value(value)) from jsonb_each(o) where key <> all(skip) and key <> 'lock_version'
    $$`);
    this.addSql(`alter table "accounts" add column "require_preconditions" boolean not null default false`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "accounts" drop column if exists "require_preconditions"`);
    for (const table of DEAL_SETS) {
      this.addSql(`drop trigger if exists "${table}_version_insert" on "${table}"`);
      this.addSql(`drop trigger if exists "${table}_version_delete" on "${table}"`);
    }
    this.addSql(`drop function if exists "record_deal_set_version"()`);
    for (const { table } of VERSIONED) {
      this.addSql(`drop trigger if exists "${table}_version" on "${table}"`);
      this.addSql(`alter table "${table}" drop column if exists "lock_version"`);
    }
    this.addSql(`drop function if exists "record_version_bump"()`);
  }
}
