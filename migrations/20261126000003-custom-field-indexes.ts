import { Migration } from '@mikro-orm/migrations';

const RECORD_TABLES: ReadonlyArray<readonly [table: string, resource: string]> = [
  ['people', 'person'],
  ['companies', 'company'],
  ['deals', 'deal'],
];

/**
 * Custom field conditions that stay fast on large accounts (issue 11 §3): the searchable values of
 * every record's `custom_fields` in a table of their own, `custom_field_search_values (field_id,
 * value, record_id)` (src/modules/custom-field-search/custom-field-search-value.entity.ts).
 *
 * - Which values: numeric and currency values (`number` is the kind's name before migration
 *   20261126000001), dates as the number YYYYMMDD, dropdown and multi-select entry ids (a row per
 *   chosen entry); `custom_field_search_rows(account, resource, custom_fields)` says it once, for
 *   the triggers, this backfill and the bench's seed.
 * - Kept in step by PostgreSQL: statement-level triggers (transition tables, so a bulk change is one
 *   set-based statement) on people, companies and deals rewrite the rows of the records whose
 *   `custom_fields` an insert, update or delete changed, in the writer's transaction. A deleted
 *   field's rows go with it (foreign key, cascade).
 * - Indexes: the primary key `(field_id, value, record_id)` answers a range or a list on one field
 *   of one account as one index range, however many accounts and fields there are; `(record_id,
 *   field_id, value)` answers "this record's value" (a plan walking the list in its order, and
 *   the triggers' deletes). On 1M deals, a 1% range on a numeric field: 10,000 values read from the
 *   index in about 1 ms; the request as a whole is measured by `npm run bench -- --deals 1000000`.
 */
/** How a key of `custom_fields` finds its field here (20261207000005 compares it as text instead; its down puts this back). */
export const CUSTOM_FIELD_KEY_V1 = `f.id = (case when e.key ~ '^custom_label_[1-9][0-9]{0,8}$' then substr(e.key, 14)::int end)`;

/** The search rows of one record's values, its key matched to a field by `keyMatch` (on `e.key` and `f.id`). */
export const customFieldSearchRows = (
  keyMatch: string,
) => `custom_field_search_rows(p_account int, p_resource text, p_values jsonb) returns table (field_id int, value numeric)
      language sql stable as $$
        select f.id, v.value
        from jsonb_each(case when jsonb_typeof(p_values) = 'object' then p_values else '{}'::jsonb end) e
        join custom_fields f on ${keyMatch}
          and f.account_id = p_account and f.resource = p_resource
        cross join lateral (
          select (e.value #>> '{}')::numeric
            where f.kind in ('number', 'numeric', 'currency', 'dropdown') and jsonb_typeof(e.value) = 'number'
          union all
          select (e.value #>> '{}')::numeric
            where f.kind = 'currency' and jsonb_typeof(e.value) = 'string' and (e.value #>> '{}') ~ '^-{0,1}[0-9]{1,30}([.][0-9]{1,30}){0,1}$'
          union all
          select (x #>> '{}')::numeric
            from jsonb_array_elements(case when f.kind = 'multi_select' and jsonb_typeof(e.value) = 'array' then e.value else '[]'::jsonb end) x
            where jsonb_typeof(x) = 'number'
          union all
          select translate(e.value #>> '{}', '-', '')::numeric
            where f.kind = 'date' and jsonb_typeof(e.value) = 'string' and (e.value #>> '{}') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
        ) v(value)
      $$`;

export class Migration20261126000003CustomFieldIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "custom_field_search_values" ("field_id" int not null, "value" numeric not null, "record_id" int not null, constraint "custom_field_search_values_pkey" primary key ("field_id", "value", "record_id"))',
    );
    this.addSql('create index "custom_field_search_values_record" on "custom_field_search_values" ("record_id", "field_id", "value")');
    this.addSql(
      'alter table "custom_field_search_values" add constraint "custom_field_search_values_field_id_foreign" foreign key ("field_id") references "custom_fields" ("id") on update cascade on delete cascade',
    );

    // The rows one record's values give (its account's fields of its resource only: a key of no
    // such field gives none). An SQL function of one SELECT: inlined into the set-based statements.
    this.addSql(`create function ${customFieldSearchRows(CUSTOM_FIELD_KEY_V1)}`);

    // One function for the three tables and the three events; TG_ARGV[0] is the resource.
    this.addSql(`create function custom_field_search_sync() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into custom_field_search_values (field_id, value, record_id)
            select r.field_id, r.value, n.id from new_rows n cross join lateral custom_field_search_rows(n.account_id, tg_argv[0], n.custom_fields) r
            on conflict do nothing;
        elsif tg_op = 'UPDATE' then
          delete from custom_field_search_values s
            using old_rows o join new_rows n on n.id = o.id, custom_fields f
            where o.custom_fields is distinct from n.custom_fields and s.record_id = o.id and f.id = s.field_id and f.resource = tg_argv[0];
          insert into custom_field_search_values (field_id, value, record_id)
            select r.field_id, r.value, n.id from new_rows n join old_rows o on o.id = n.id
              cross join lateral custom_field_search_rows(n.account_id, tg_argv[0], n.custom_fields) r
            where o.custom_fields is distinct from n.custom_fields
            on conflict do nothing;
        else
          delete from custom_field_search_values s using old_rows o, custom_fields f
            where s.record_id = o.id and f.id = s.field_id and f.resource = tg_argv[0];
        end if;
        return null;
      end
    $$`);
    for (const [table, resource] of RECORD_TABLES) {
      this.addSql(
        `create trigger "${table}_custom_field_search_insert" after insert on "${table}" referencing new table as new_rows for each statement execute function custom_field_search_sync('${resource}')`,
      );
      this.addSql(
        `create trigger "${table}_custom_field_search_update" after update on "${table}" referencing old table as old_rows new table as new_rows for each statement execute function custom_field_search_sync('${resource}')`,
      );
      this.addSql(
        `create trigger "${table}_custom_field_search_delete" after delete on "${table}" referencing old table as old_rows for each statement execute function custom_field_search_sync('${resource}')`,
      );
      // Backfill, in index order.
      this.addSql(`insert into "custom_field_search_values" ("field_id", "value", "record_id")
        select r.field_id, r.value, t.id from "${table}" t cross join lateral custom_field_search_rows(t.account_id, '${resource}', t.custom_fields) r
        order by 1, 2, 3 on conflict do nothing`);
    }
    // Statistics now, not when autovacuum gets to it: the first plans depend on them.
    this.addSql('analyze "custom_field_search_values"');
  }

  override async down(): Promise<void> {
    for (const [table] of RECORD_TABLES) {
      for (const event of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists "${table}_custom_field_search_${event}" on "${table}"`);
    }
    this.addSql('drop function if exists custom_field_search_sync()');
    this.addSql('drop function if exists custom_field_search_rows(int, text, jsonb)');
    this.addSql('drop table if exists "custom_field_search_values" cascade');
  }
}
