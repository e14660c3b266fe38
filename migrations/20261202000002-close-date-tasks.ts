import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 22 (what the official clients' recordings show):
 * - `deals.expected_close_date_event_id`: a deal's expected close date is a calendar task (v3 §2.5;
 *   PipelineDeals_Deal_calendar_entries.yml), kept by the deal's writes (deal.close-date-task.ts).
 *   Every deal that already has a date gets its task here, as a write would make it: "Expected close
 *   date", due that day, in the account's "Milestone" event category (added to the end of the list
 *   where the account has none), about the deal, owned by the deal's owner, in the owner's zone.
 *   Indexed: deleting a calendar entry nulls the deals pointing at it.
 * - `people.created_by_id`: v3 `created_by_user_id` (people_index.yml); unknown (null) for the
 *   people created before it was kept.
 */
export class Migration20261202000002CloseDateTasks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "people" add column "created_by_id" int null`);
    this.addSql(
      `alter table "people" add constraint "people_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(`alter table "deals" add column "expected_close_date_event_id" int null`);
    this.addSql(
      `alter table "deals" add constraint "deals_expected_close_date_event_id_foreign" foreign key ("expected_close_date_event_id") references "calendar_entries" ("id") on update cascade on delete set null`,
    );
    this.addSql(`create index "deals_expected_close_date_event" on "deals" ("expected_close_date_event_id")`);

    this.addSql(`insert into "list_items" ("account_id", "kind", "name", "position", "created_at", "updated_at")
      select a.account_id, 'event_category', 'Milestone',
             (select least(coalesce(max(l."position")::bigint + 1, 0), 2147483647)::int from "list_items" l where l.account_id = a.account_id and l.kind = 'event_category'),
             now(), now()
        from (select distinct account_id from "deals" where expected_close_date is not null) a
       where not exists (select 1 from "list_items" l where l.account_id = a.account_id and l.kind = 'event_category' and lower(l.name) = 'milestone')`);
    this.addSql(`with dated as (
        select d.id, d.account_id, d.owner_id, d.expected_close_date, coalesce(u.time_zone, acc.time_zone) as zone,
               (select l.id from "list_items" l where l.account_id = d.account_id and l.kind = 'event_category' and lower(l.name) = 'milestone' limit 1) as category_id
          from "deals" d
          join "accounts" acc on acc.id = d.account_id
          left join "users" u on u.id = d.owner_id and u.account_id = d.account_id
         where d.expected_close_date is not null and d.expected_close_date_event_id is null
      ), made as (
        insert into "calendar_entries" ("account_id", "kind", "owner_id", "name", "due_date", "category_id", "association_type", "deal_id",
            "all_day", "time_zone", "complete", "active", "part_of_recurring_series", "created_at", "updated_at")
        select account_id, 'task', owner_id, 'Expected close date', expected_close_date, category_id, 'Deal', id, true, zone, false, true, false, now(), now()
          from dated order by id
        returning "id", "deal_id"
      )
      update "deals" d set "expected_close_date_event_id" = made.id from made where d.id = made.deal_id`);
  }

  override async down(): Promise<void> {
    // The tasks stay: they are the users' calendar entries now (they may have completed or moved them).
    this.addSql(`alter table "deals" drop constraint "deals_expected_close_date_event_id_foreign"`);
    this.addSql(`drop index "deals_expected_close_date_event"`);
    this.addSql(`alter table "deals" drop column "expected_close_date_event_id"`);
    this.addSql(`alter table "people" drop constraint "people_created_by_id_foreign"`);
    this.addSql(`alter table "people" drop column "created_by_id"`);
  }
}
