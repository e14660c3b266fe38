import { Migration } from '@mikro-orm/migrations';
import { RECORD_CHANGE_V1 } from './20261203000001-record-changes';
import { RECORD_VERSION_BUMP_V1 } from './20261206000001-record-versions';
import { CUSTOM_FIELD_KEY_V1, customFieldSearchRows } from './20261126000003-custom-field-indexes';

/**
 * Issue 27 §1: the change records and versions at the speed of a bulk import.
 *
 * An UPDATE of many rows (an import's batch) spent most of its time in the triggers: measured on
 * 5,000 of 100,000 people, 4.8 s, of which the change trigger 2.9 s and the version trigger 0.6 s
 * (the statement itself, with its ~30 indexes, 0.8 s). What cost was the generic per-row diff: each
 * row turned into jsonb twice and compared key by key by a SQL function called once a row, its
 * custom fields through a sub-select.
 *
 * - `record_change()`: an UPDATE statement of 32 rows or more compares the columns themselves
 *   (`o.col is distinct from n.col` for text, numbers, booleans, times and jsonb; any other type
 *   as jsonb, as the per-row path compares everything), jsonb built only for the fields that changed, and the custom
 *   fields in one lateral join; the statement is written from the table's columns in the catalog
 *   when the trigger runs, so a column added later is compared with no migration of its own. The
 *   changes recorded are the same as the per-row path's (which smaller statements, an API write,
 *   keep: writing and planning the statement costs about a millisecond). JIT is off for it: a
 *   compiled expression of ~50 columns took longer to compile (1.7 s) than to run.
 * - An INSERT of 32 rows or more reads the ids as columns instead of out of a jsonb of each row.
 * - `custom_field_search_rows()` finds a key's field by comparing the key with `custom_label_<id>`
 *   instead of parsing every key against every field with a regular expression.
 * - `record_version_bump()`: a write that already moves the version by one (an import does) is
 *   taken as it is, with no jsonb of the row; the outcome is the one the full check gives then.
 *
 * The same 5,000 people: 1.4 s.
 */
const RECORD_CHANGE_V2 = `"record_change"() returns trigger language plpgsql as $$
      declare
        v_model text := coalesce(nullif(current_setting('crm.model.' || TG_TABLE_NAME, true), ''), TG_ARGV[0]);
        v_skip text[] := TG_ARGV[1]::text[];
        v_user int := nullif(current_setting('crm.actor_user', true), '')::int;
        v_app int := nullif(current_setting('crm.actor_app', true), '')::int;
        v_origin text := coalesce(nullif(current_setting('crm.origin', true), ''), 'system');
        v_kind text := case when v_origin in ('job', 'import') then 'job' when v_app is not null then 'app' when v_user is not null then 'user' else 'system' end;
        v_fields text;
        v_custom boolean;
        v_jit text;
        v_bulk boolean := false;
      begin
        -- A DELETE's trigger has no new_rows (a condition naming it fails there).
        if TG_OP <> 'DELETE' then
          v_bulk := (select count(*) from (select 1 from new_rows limit 32) f) >= 32;
        end if;
        if TG_OP = 'INSERT' and v_bulk then
          -- The ids as columns (every tracked table has them), not read out of a jsonb of each whole row.
          execute $q$
            insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin)
            select n.account_id, $1, 'create', n.id, $2, $3, $4, $5 from new_rows n
            on conflict ("tx", "model", "record_id") do update set action = 'create', changes = null, record = null
            $q$
          using v_model, v_kind, v_user, v_app, v_origin;
        elsif TG_OP = 'INSERT' then
          insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin)
          select (to_jsonb(n) ->> 'account_id')::int, v_model, 'create', (to_jsonb(n) ->> 'id')::int, v_kind, v_user, v_app, v_origin from new_rows n
          on conflict ("tx", "model", "record_id") do update set action = 'create', changes = null, record = null;
        elsif v_bulk then
          -- Each column the records show, compared as itself where its type is one of the plain
          -- ones below (any other, which may lack an equality, as jsonb, as the per-row path does),
          -- its values as record_change_value would give them: text cut past 1,000 characters
          -- inline, numbers, booleans and times as they are (never long text), anything else through it.
          select string_agg(format(
                   'case when %3$s is distinct from %4$s then jsonb_build_object(%1$L, jsonb_build_array(%5$s, %6$s)) else ''{}''::jsonb end',
                   a.attname, null,
                   format(v.compared, 'o.' || quote_ident(a.attname)),
                   format(v.compared, 'n.' || quote_ident(a.attname)),
                   format(v.value, 'o.' || quote_ident(a.attname)),
                   format(v.value, 'n.' || quote_ident(a.attname))),
                 ' || ' order by a.attnum) filter (where a.attname <> 'custom_fields'),
                 coalesce(bool_or(a.attname = 'custom_fields'), false)
            into v_fields, v_custom
            from pg_attribute a
            cross join lateral (select
              case when a.atttypid in ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype, 'int2'::regtype, 'int4'::regtype, 'int8'::regtype,
                                       'float4'::regtype, 'float8'::regtype, 'numeric'::regtype, 'bool'::regtype, 'date'::regtype,
                                       'timestamp'::regtype, 'timestamptz'::regtype, 'jsonb'::regtype)
                   then '%1$s' else 'to_jsonb(%1$s)' end,
              case when a.atttypid in ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype)
                     then 'to_jsonb(case when length(%1$s) > 1000 then left(%1$s, 1000) || ''…[cut]'' else %1$s::text end)'
                   when a.atttypid in ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype, 'float8'::regtype, 'numeric'::regtype,
                                       'bool'::regtype, 'date'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype)
                     then 'to_jsonb(%1$s)'
                   else 'record_change_value(to_jsonb(%1$s))' end) v(compared, value)
           where a.attrelid = TG_RELID and a.attnum > 0 and not a.attisdropped and a.attname <> 'lock_version' and a.attname <> all(v_skip);
          v_jit := current_setting('jit');
          perform set_config('jit', 'off', true);
          execute format($q$
            insert into record_changes (account_id, model, action, record_id, actor_kind, actor_user_id, actor_app_id, origin, changes)
            select d.account_id, $1, 'update', d.id, $2, $3, $4, $5, d.diff
              from (select n.account_id, n.id, nullif(%s || %s, '{}'::jsonb) as diff
                      from new_rows n join old_rows o on o.id = n.id %s) d
             where d.diff is not null
            on conflict ("tx", "model", "record_id") do update
              set changes = case when record_changes.action = 'update' then record_change_merge(record_changes.changes, excluded.changes) else record_changes.changes end
            $q$,
            coalesce(v_fields, '''{}''::jsonb'),
            case when v_custom then 'coalesce(cf.diff, ''{}''::jsonb)' else '''{}''::jsonb' end,
            -- Custom fields per key, as record_change_diff compares them.
            case when v_custom then $c$left join lateral (
                select jsonb_object_agg('custom_fields.' || k, jsonb_build_array(record_change_value(coalesce(o.custom_fields, '{}') -> k), record_change_value(coalesce(n.custom_fields, '{}') -> k))) as diff
                  from (select k from jsonb_object_keys(coalesce(o.custom_fields, '{}')) k
                        union all
                        select k from jsonb_object_keys(coalesce(n.custom_fields, '{}')) k where not coalesce(o.custom_fields, '{}') ? k) keys(k)
                 where (coalesce(o.custom_fields, '{}') -> k) is distinct from (coalesce(n.custom_fields, '{}') -> k)) cf on o.custom_fields is distinct from n.custom_fields$c$
            else '' end)
          using v_model, v_kind, v_user, v_app, v_origin;
          perform set_config('jit', v_jit, true);
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

const RECORD_VERSION_BUMP_V2 = `"record_version_bump"() returns trigger language plpgsql as $$
      declare
        v_skip text[] := TG_ARGV[0]::text[];
      begin
        if NEW.lock_version = OLD.lock_version + 1 then
          return NEW; -- moved by one already: what the check below would leave either way
        elsif (to_jsonb(NEW) - v_skip) is distinct from (to_jsonb(OLD) - v_skip) then
          NEW.lock_version := OLD.lock_version + 1;
        elsif NEW.lock_version < OLD.lock_version then
          NEW.lock_version := OLD.lock_version;
        end if;
        return NEW;
      end
    $$`;

export class Migration20261207000005BulkChangeRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function ${RECORD_CHANGE_V2}`);
    this.addSql(`create or replace function ${RECORD_VERSION_BUMP_V2}`);
    this.addSql(`create or replace function ${customFieldSearchRows(`e.key = 'custom_label_' || f.id`)}`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function ${RECORD_CHANGE_V1}`);
    this.addSql(`create or replace function ${RECORD_VERSION_BUMP_V1}`);
    this.addSql(`create or replace function ${customFieldSearchRows(CUSTOM_FIELD_KEY_V1)}`);
  }
}
