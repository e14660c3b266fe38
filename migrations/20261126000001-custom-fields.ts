import { Migration } from '@mikro-orm/migrations';

const KINDS = `'text', 'numeric', 'currency', 'date', 'dropdown', 'multi_select', 'boolean'`;
const OLD_KINDS = `'text', 'number', 'date', 'dropdown', 'multi_select'`;
const RECORD_TABLES: ReadonlyArray<readonly [table: string, resource: string]> = [
  ['people', 'person'],
  ['companies', 'company'],
  ['deals', 'deal'],
];

/**
 * Custom field definitions managed as an admin surface (DECISIONS: Admin surface: custom field
 * labels, groups, dropdown entries): the kinds v3 lists (`number` becomes `numeric`), required
 * fields, groups, timestamps, and dropdown entries as rows of their own instead of the `choices`
 * JSON. Existing choices become entries with new ids, and every stored dropdown and multi-select
 * value in people, companies and deals is rewritten to them (an id no choice had is dropped).
 * Duplicate names (now unique, ignoring case) are made distinct by their id.
 */
export class Migration20261126000001CustomFields extends Migration {
  override async up(): Promise<void> {
    // Kinds: the v3 names.
    this.addSql(`alter table "custom_fields" drop constraint if exists "custom_fields_kind_check"`);
    this.addSql(`update "custom_fields" set "kind" = 'numeric' where "kind" = 'number'`);
    this.addSql(`alter table "custom_fields" add constraint "custom_fields_kind_check" check("kind" in (${KINDS}))`);

    // Groups.
    this.addSql(
      `create table "custom_field_groups" ("id" serial primary key, "account_id" int not null, "resource" text check ("resource" in ('person', 'company', 'deal')) not null, "name" varchar(100) not null, "position" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "custom_field_groups_account_resource_position" on "custom_field_groups" ("account_id", "resource", "position")`);
    this.addSql(`create unique index "custom_field_groups_account_resource_name_unique" on "custom_field_groups" ("account_id", "resource", lower("name"))`);
    this.addSql(
      `alter table "custom_field_groups" add constraint "custom_field_groups_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );

    // Labels: required, grouped, timestamped; names unique per resource.
    this.addSql(
      `alter table "custom_fields" add column "is_required" boolean not null default false, add column "group_id" int null, add column "created_at" timestamptz null, add column "updated_at" timestamptz null`,
    );
    this.addSql(`update "custom_fields" set "created_at" = now(), "updated_at" = now()`);
    this.addSql(`alter table "custom_fields" alter column "created_at" set not null, alter column "updated_at" set not null`);
    this.addSql(
      `alter table "custom_fields" add constraint "custom_fields_group_id_foreign" foreign key ("group_id") references "custom_field_groups" ("id") on update cascade on delete set null`,
    );
    this.addSql(`create index "custom_fields_group" on "custom_fields" ("group_id")`);
    this.addSql(`update "custom_fields" c set "name" = left(c."name", 85) || ' (' || c.id || ')'
      where exists (select 1 from "custom_fields" o where o.account_id = c.account_id and o.resource = c.resource and lower(o.name) = lower(c.name) and o.id < c.id)`);
    this.addSql(`create unique index "custom_fields_account_resource_name_unique" on "custom_fields" ("account_id", "resource", lower("name"))`);

    // Entries, from the choices of dropdown and multi-select fields (a legacy id column maps the old ids while the values are rewritten).
    this.addSql(
      `create table "custom_field_entries" ("id" serial primary key, "account_id" int not null, "custom_field_id" int not null, "name" varchar(100) not null, "position" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, "legacy_choice_id" text null)`,
    );
    this.addSql(`insert into "custom_field_entries" ("account_id", "custom_field_id", "name", "position", "created_at", "updated_at", "legacy_choice_id")
      select c.account_id, c.custom_field_id,
             case when c.dup > 1 then left(c.name, 88) || ' (' || c.ord || ')' else c.name end,
             c.ord - 1, now(), now(), c.old_id
      from (
        select f.account_id, f.id as custom_field_id, ch.ord, ch.value ->> 'id' as old_id,
               left(coalesce(nullif(btrim(ch.value ->> 'name'), ''), 'Entry ' || ch.ord), 100) as name,
               row_number() over (partition by f.id, lower(left(coalesce(nullif(btrim(ch.value ->> 'name'), ''), 'Entry ' || ch.ord), 100)) order by ch.ord) as dup
        from "custom_fields" f
        cross join lateral jsonb_array_elements(case when jsonb_typeof(f.choices) = 'array' then f.choices else '[]'::jsonb end) with ordinality as ch(value, ord)
        where f.kind in ('dropdown', 'multi_select') and jsonb_typeof(ch.value) = 'object'
      ) c
      order by c.custom_field_id, c.ord`);
    for (const [table, resource] of RECORD_TABLES) {
      // Dropdown: the mapped id (or no value); multi-select: the mapped ids, in order, without the unmapped or repeats.
      this.addSql(`update "${table}" t set "custom_fields" = (
          select coalesce(jsonb_object_agg(kv.key, case
            when f.kind = 'dropdown' then (
              select to_jsonb(e.id) from "custom_field_entries" e
              where e.custom_field_id = f.id and e.legacy_choice_id = (case when jsonb_typeof(kv.value) = 'array' then kv.value ->> 0 else kv.value #>> '{}' end))
            when f.kind = 'multi_select' then (
              select coalesce(jsonb_agg(to_jsonb(m.id) order by m.i), '[]'::jsonb)
              from (
                select e.id, min(el.i) as i
                from jsonb_array_elements(case when jsonb_typeof(kv.value) = 'array' then kv.value else jsonb_build_array(kv.value) end) with ordinality as el(v, i)
                join "custom_field_entries" e on e.custom_field_id = f.id and e.legacy_choice_id = el.v #>> '{}'
                group by e.id) m)
            else kv.value end), '{}'::jsonb)
          from jsonb_each(t.custom_fields) kv
          left join "custom_fields" f on f.account_id = t.account_id and f.resource = '${resource}' and kv.key = 'custom_label_' || f.id)
        where jsonb_typeof(t.custom_fields) = 'object' and exists (
          select 1 from jsonb_each(t.custom_fields) kv
          join "custom_fields" f on f.account_id = t.account_id and f.resource = '${resource}' and kv.key = 'custom_label_' || f.id and f.kind in ('dropdown', 'multi_select'))`);
      // A dropdown value whose choice is gone is no value (key removed).
      this.addSql(`update "${table}" t set "custom_fields" = jsonb_strip_nulls(t.custom_fields)
        where jsonb_typeof(t.custom_fields) = 'object' and exists (select 1 from jsonb_each(t.custom_fields) kv where kv.value = 'null'::jsonb)`);
    }
    this.addSql(`alter table "custom_field_entries" drop column "legacy_choice_id"`);
    this.addSql(`create index "custom_field_entries_field_position" on "custom_field_entries" ("custom_field_id", "position")`);
    this.addSql(`create index "custom_field_entries_account" on "custom_field_entries" ("account_id")`);
    this.addSql(`create unique index "custom_field_entries_field_name_unique" on "custom_field_entries" ("custom_field_id", lower("name"))`);
    this.addSql(
      `alter table "custom_field_entries" add constraint "custom_field_entries_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "custom_field_entries" add constraint "custom_field_entries_custom_field_id_foreign" foreign key ("custom_field_id") references "custom_fields" ("id") on update cascade on delete cascade`,
    );
    this.addSql(`alter table "custom_fields" drop column "choices"`);
  }

  /**
   * Back to choices (entry ids become the choice ids, so stored values stay valid); kinds the old
   * schema lacks: currency becomes number, boolean fields are dropped (their values stay as
   * unknown keys, which reads ignore).
   */
  override async down(): Promise<void> {
    this.addSql(`alter table "custom_fields" add column "choices" jsonb not null default '[]'`);
    this.addSql(
      `update "custom_fields" f set "choices" = coalesce((select jsonb_agg(jsonb_build_object('id', e.id, 'name', e.name) order by e.position, e.id) from "custom_field_entries" e where e.custom_field_id = f.id), '[]'::jsonb)`,
    );
    this.addSql(`drop table if exists "custom_field_entries" cascade`);
    this.addSql(`drop index if exists "custom_fields_account_resource_name_unique"`);
    this.addSql(`drop index if exists "custom_fields_group"`);
    this.addSql(`alter table "custom_fields" drop constraint if exists "custom_fields_group_id_foreign"`);
    this.addSql(`alter table "custom_fields" drop column "is_required", drop column "group_id", drop column "created_at", drop column "updated_at"`);
    this.addSql(`drop table if exists "custom_field_groups" cascade`);
    this.addSql(`alter table "custom_fields" drop constraint if exists "custom_fields_kind_check"`);
    this.addSql(`delete from "custom_fields" where "kind" = 'boolean'`);
    this.addSql(`update "custom_fields" set "kind" = 'number' where "kind" in ('numeric', 'currency')`);
    this.addSql(`alter table "custom_fields" add constraint "custom_fields_kind_check" check("kind" in (${OLD_KINDS}))`);
  }
}
