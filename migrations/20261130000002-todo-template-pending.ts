import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 14 §4: the todo template applications recorded as `pending` before calendar entries
 * existed become their tasks, as `applyTodoTemplate` makes them now: one task per item of the
 * template, named by its description, due `due_date` days after the day the template was applied
 * (in the owner's zone; no due date when null), in the item's event category and priority, owned
 * by the user the application recorded (else the record's owner), about the person or deal. An
 * application whose record is gone makes nothing. Each is then marked `applied`, so none is made twice.
 */
export class Migration20261130000002TodoTemplatePending extends Migration {
  override async up(): Promise<void> {
    this.addSql(`with pending as (
        select a.id, a.account_id, a.template_id, a.record_type, a.record_id, a.user_id, a.created_at,
               case a.record_type when 'Deal' then d.owner_id else p.owner_id end as record_owner_id
          from "todo_template_applications" a
          left join "deals" d on a.record_type = 'Deal' and d.id = a.record_id and d.account_id = a.account_id
          left join "people" p on a.record_type = 'Person' and p.id = a.record_id and p.account_id = a.account_id
         where a.status = 'pending' and (d.id is not null or p.id is not null)
      ), owned as (
        select pending.*, coalesce(pending.user_id, pending.record_owner_id) as owner_id,
               coalesce(u.time_zone, acc.time_zone) as zone
          from pending
          join "accounts" acc on acc.id = pending.account_id
          left join "users" u on u.id = coalesce(pending.user_id, pending.record_owner_id) and u.account_id = pending.account_id
      ), made as (
        insert into "calendar_entries" ("account_id", "kind", "owner_id", "name", "description", "due_date", "category_id", "calendar_entry_priority_id",
            "association_type", "deal_id", "person_id", "all_day", "time_zone", "complete", "active", "part_of_recurring_series", "created_at", "updated_at")
        select o.account_id, 'task', o.owner_id, i.description, null,
               case when i.due_date is null then null else (o.created_at at time zone o.zone)::date + i.due_date end,
               i.event_category_id, i.calendar_entry_priority_id, o.record_type,
               case when o.record_type = 'Deal' then o.record_id end, case when o.record_type = 'Person' then o.record_id end,
               true, o.zone, false, true, false, now(), now()
          from owned o
          join "todo_template_items" i on i.todo_template_id = o.template_id and i.account_id = o.account_id
         order by o.id, i.position, i.id
        returning 1
      )
      update "todo_template_applications" set "status" = 'applied'
       where "status" = 'pending' and "id" in (select id from pending)`);
  }

  override async down(): Promise<void> {
    // The tasks are the users' now (they may have completed or changed them): nothing is undone.
  }
}
