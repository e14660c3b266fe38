import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24 §1: every change of the tracked records, recorded once, in the transaction of the change.
 *
 * Triggers record them, so no write path escapes: the ORM's flushes, the raw SQL of services and
 * jobs, cascades (a deal's notes deleted with it, its documents unlinked), imports. They are
 * statement triggers with transition tables: one insert per statement, however many rows it wrote.
 *
 * - One row per record and transaction: a second statement of the same transaction on the same
 *   record merges into it (`record_changes_once`): an update keeps each field's first previous
 *   value and takes its last new one, a delete turns the row into a tombstone.
 * - An update records the fields that changed (`{"name": ["old", "new"]}`), leaving out what is
 *   noise or secret (each table's list below, `updated_at` everywhere); an update of nothing else
 *   records nothing. `custom_fields` is compared per key (`custom_fields.custom_label_12`). A deal's
 *   people and collaborators (join tables) are updates of the deal (`person_ids`, `collaborator_ids`).
 * - Text over 1,000 characters is cut, with `…[cut]` at the end, in changes and tombstones.
 * - Who and whence come from the transaction's settings (`crm.actor_user`, `crm.actor_app`,
 *   `crm.origin`), set by the service's mutation wrapper and its jobs; a write without them
 *   (a console, a migration) is the system's. `crm.model.<table>` renames the model for one
 *   transaction (a note written as a conversation).
 * - `tx` (the writing transaction) lets the change feed read in commit order without gaps
 *   (src/modules/changes/change-feed.ts).
 */
const TRACKED: ReadonlyArray<{ table: string; model: string; skip: readonly string[] }> = [
  { table: 'deals', model: 'deal', skip: ['last_modified_by_id', 'viewed_at'] },
  { table: 'people', model: 'person', skip: ['viewed_at'] },
  { table: 'companies', model: 'company', skip: [] },
  { table: 'notes', model: 'note', skip: [] },
  { table: 'comments', model: 'comment', skip: [] },
  { table: 'calendar_entries', model: 'calendar_entry', skip: [] },
  {
    table: 'documents',
    model: 'document',
    skip: ['storage_key', 'public_token', 'public_token_digest', 'fetch_generation', 'fetch_attempts', 'fetch_lease_until', 'etag'],
  },
  { table: 'account_notifications', model: 'account_notification', skip: [] },
];

/** The join tables whose rows are a field of a deal. */
const DEAL_SETS: ReadonlyArray<{ table: string; column: string; field: string }> = [
  { table: 'deal_people', column: 'person_id', field: 'person_ids' },
  { table: 'deal_collaborators', column: 'user_id', field: 'collaborator_ids' },
];

const ALWAYS_SKIPPED = ['id', 'account_id', 'created_at', 'updated_at'];

/** The trigger function as this migration makes it (20261207000005 replaces it, and its down puts this one back). */
export const RECORD_CHANGE_V1 = `"record_change"() returns trigger language plpgsql as $$
      declare
        v_model text := coalesce(nullif(current_setting('crm.model.' || TG_TABLE_NAME, true), ''), TG_ARGV[0]);
        v_skip text[] := TG_ARGV[1]::text[];
        v_user int := nullif(current_setting('crm.actor_user', true), '')::int;
        v_app int := nullif(current_setting('crm.actor_app', true), '')::int;
        v_origin text := coalesce(nullif(current_setting('crm.origin', true), ''), 'system');
        v_kind text := case when v_origin in ('job', 'import') then 'job' when v_app is not null then 'app' when v_user is not null then 'user' else 'system' end;
      begin
        if TG_OP = 'INSERT' then
          insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin)
          select (to_jsonb(n) ->> 'account_id')::int, v_model, 'create', (to_jsonb(n) ->> 'id')::int, v_kind, v_user, v_app, v_origin from new_rows n
          on conflict ("tx", "model", "record_id") do update set action = 'create', changes = null, record = null;
        elsif TG_OP = 'UPDATE' then
          insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin, changes)
          select (d.nj ->> 'account_id')::int, v_model, 'update', (d.nj ->> 'id')::int, v_kind, v_user, v_app, v_origin, d.diff
            from (select to_jsonb(n) as nj, record_change_diff(to_jsonb(o), to_jsonb(n), v_skip) as diff from new_rows n join old_rows o on o.id = n.id) d
           where d.diff is not null
          on conflict ("tx", "model", "record_id") do update
            set changes = case when record_changes.action = 'update' then record_change_merge(record_changes.changes, excluded.changes) else record_changes.changes end;
        else
          insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin, record)
          select (to_jsonb(o) ->> 'account_id')::int, v_model, 'destroy', (to_jsonb(o) ->> 'id')::int, v_kind, v_user, v_app, v_origin,
                 record_change_tombstone(to_jsonb(o), v_skip)
            from old_rows o
          on conflict ("tx", "model", "record_id") do update set action = 'destroy', changes = null, record = excluded.record;
        end if;
        return null;
      end
    $$`;

export class Migration20261203000001RecordChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "record_changes" (
      "id" bigserial primary key,
      "account_id" int not null,
      "tx" xid8 not null default pg_current_xact_id(),
      "model" text not null,
      "action" text not null check ("action" in ('create', 'update', 'destroy')),
      "record_id" int not null,
      "actor_kind" text not null check ("actor_kind" in ('user', 'app', 'job', 'system')),
      "actor_user_id" int null,
      "actor_app_id" int null,
      "origin" text not null,
      "changes" jsonb null,
      "record" jsonb null,
      "occurred_at" timestamptz not null default now()
    )`);
    this.addSql(`create unique index "record_changes_once" on "record_changes" ("tx", "model", "record_id")`);
    this.addSql(`create index "record_changes_feed" on "record_changes" ("account_id", "tx", "id")`);
    this.addSql(`create index "record_changes_start" on "record_changes" ("account_id", "id")`);
    this.addSql(`create index "record_changes_age" on "record_changes" ("occurred_at")`);
    // The newest transaction and id pruned (retention): a feed cursor from before them may have missed a change.
    this.addSql(`create table "record_changes_pruned" (
      "singleton" boolean primary key default true check ("singleton"),
      "max_tx" bigint not null,
      "max_id" bigint not null
    )`);

    // A value as recorded: long text cut with a marker.
    this.addSql(`create function "record_change_value"(v jsonb) returns jsonb language sql immutable as $$
      select case when jsonb_typeof(v) = 'string' and length(v #>> '{}') > 1000 then to_jsonb(left(v #>> '{}', 1000) || '…[cut]') else v end
    $$`);
    // The fields that differ between two rows (as jsonb), custom fields per key, without `skip`.
    this.addSql(`create function "record_change_diff"(o jsonb, n jsonb, skip text[]) returns jsonb language sql immutable as $$
      select jsonb_object_agg(k, jsonb_build_array(record_change_value(ov), record_change_value(nv)))
        from (
          select key as k, o -> key as ov, n -> key as nv from jsonb_object_keys(n) key
           where key <> 'custom_fields' and key <> all(skip) and (o -> key) is distinct from (n -> key)
          union all
          select 'custom_fields.' || key, coalesce(o -> 'custom_fields', '{}') -> key, coalesce(n -> 'custom_fields', '{}') -> key
            from (select jsonb_object_keys(coalesce(o -> 'custom_fields', '{}')) union select jsonb_object_keys(coalesce(n -> 'custom_fields', '{}'))) keys(key)
           where 'custom_fields' <> all(skip) and (coalesce(o -> 'custom_fields', '{}') -> key) is distinct from (coalesce(n -> 'custom_fields', '{}') -> key)
        ) d
    $$`);
    // Two updates of one transaction: each field's first previous value and last new one; a field back where it was is no change.
    this.addSql(`create function "record_change_merge"(a jsonb, b jsonb) returns jsonb language sql immutable as $$
      select coalesce(jsonb_object_agg(k, v) filter (where v -> 0 is distinct from v -> 1), '{}')
        from (
          select coalesce(a_k, b_k) as k,
                 case when a_v is null then b_v when b_v is null then a_v else jsonb_build_array(a_v -> 0, b_v -> 1) end as v
            from jsonb_each(coalesce(a, '{}')) x(a_k, a_v) full join jsonb_each(coalesce(b, '{}')) y(b_k, b_v) on a_k = b_k
        ) m
    $$`);
    // A row as a tombstone keeps it: without `skip`, long text cut.
    this.addSql(`create function "record_change_tombstone"(o jsonb, skip text[]) returns jsonb language sql immutable as $$
      select jsonb_object_agg(key, record_change_value(value)) from jsonb_each(o) where key <> all(skip)
    $$`);
    this.addSql(`create function ${RECORD_CHANGE_V1}`);
    // A deal's set (its people, its collaborators): the deal's field before and after the statement.
    this.addSql(`create function "record_deal_set_change"() returns trigger language plpgsql as $$
      declare
        v_col text := TG_ARGV[0];
        v_field text := TG_ARGV[1];
        v_user int := nullif(current_setting('crm.actor_user', true), '')::int;
        v_app int := nullif(current_setting('crm.actor_app', true), '')::int;
        v_origin text := coalesce(nullif(current_setting('crm.origin', true), ''), 'system');
        v_kind text := case when v_origin in ('job', 'import') then 'job' when v_app is not null then 'app' when v_user is not null then 'user' else 'system' end;
      begin
        execute format($q$
          with touched as (
            select deal_id, %1$I as member, %3$s as added from %4$s
          ), sets as (
            select t.deal_id, d.account_id,
                   coalesce((select jsonb_agg(x.%1$I order by x.%1$I) from %2$I x where x.deal_id = t.deal_id), '[]') as now_set,
                   array_agg(t.member) filter (where t.added = 1) as added,
                   array_agg(t.member) filter (where t.added = -1) as removed
              from touched t join deals d on d.id = t.deal_id
             group by t.deal_id, d.account_id
          )
          insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin, changes)
          select s.account_id, 'deal', 'update', s.deal_id, $1, $2, $3, $4,
                 jsonb_build_object($5, jsonb_build_array(
                   coalesce((select jsonb_agg(m order by m) from (
                     select value::int as m from jsonb_array_elements_text(s.now_set) where value::int <> all(coalesce(s.added, '{}'))
                     union select unnest(s.removed)) p), '[]'),
                   s.now_set))
            from sets s
          on conflict ("tx", "model", "record_id") do update
            set changes = case when record_changes.action = 'update' then record_change_merge(record_changes.changes, excluded.changes) else record_changes.changes end
        $q$, v_col, TG_TABLE_NAME, case when TG_OP = 'INSERT' then '1' else '-1' end, case when TG_OP = 'INSERT' then 'new_rows' else 'old_rows' end)
        using v_kind, v_user, v_app, v_origin, v_field;
        return null;
      end
    $$`);
    for (const { table, model, skip } of TRACKED) {
      const skipped = `{${[...ALWAYS_SKIPPED, ...skip].join(',')}}`;
      this.addSql(
        `create trigger "${table}_changes_insert" after insert on "${table}" referencing new table as new_rows for each statement execute function record_change('${model}', '${skipped}')`,
      );
      this.addSql(
        `create trigger "${table}_changes_update" after update on "${table}" referencing old table as old_rows new table as new_rows for each statement execute function record_change('${model}', '${skipped}')`,
      );
      this.addSql(
        `create trigger "${table}_changes_delete" after delete on "${table}" referencing old table as old_rows for each statement execute function record_change('${model}', '${skipped}')`,
      );
    }
    for (const { table, column, field } of DEAL_SETS) {
      this.addSql(
        `create trigger "${table}_changes_insert" after insert on "${table}" referencing new table as new_rows for each statement execute function record_deal_set_change('${column}', '${field}')`,
      );
      this.addSql(
        `create trigger "${table}_changes_delete" after delete on "${table}" referencing old table as old_rows for each statement execute function record_deal_set_change('${column}', '${field}')`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const { table } of [...TRACKED, ...DEAL_SETS]) {
      for (const op of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists "${table}_changes_${op}" on "${table}"`);
    }
    this.addSql(`drop function if exists "record_deal_set_change"()`);
    this.addSql(`drop function if exists "record_change"()`);
    this.addSql(`drop function if exists "record_change_tombstone"(jsonb, text[])`);
    this.addSql(`drop function if exists "record_change_merge"(jsonb, jsonb)`);
    this.addSql(`drop function if exists "record_change_diff"(jsonb, jsonb, text[])`);
    this.addSql(`drop function if exists "record_change_value"(jsonb)`);
    this.addSql(`drop table if exists "record_changes_pruned"`);
    this.addSql(`drop table if exists "record_changes"`);
  }
}
