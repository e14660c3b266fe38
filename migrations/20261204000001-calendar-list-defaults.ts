import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 25 §5: new accounts start with event categories and calendar entry priorities
 * (DEFAULT_LISTS, src/modules/accounts/account.service.ts); accounts made before get the same
 * where they have none, so calendar clients do not find empty lists. An account whose only event
 * category is the "Milestone" the service made for expected close date tasks (migration
 * 20261202000002, deal.close-date-task.ts) never set its list up either: it gets the other
 * defaults, and its Milestone the default's place (last). An account with any other item of a list
 * keeps that list as its admins made it. Written out here, not imported: a migration states what it
 * did when it ran, whatever the defaults become later.
 */
const EVENT_CATEGORIES = `(values ('Call', 0), ('Email', 1), ('Meeting', 2), ('Follow-up', 3), ('Milestone', 4)) as d(name, position)`;
const PRIORITIES = `(values ('High', '#ef4444', 0), ('Medium', '#f59e0b', 1), ('Low', '#6b7280', 2)) as d(name, hex_color, position)`;

/** The accounts whose event categories are none, or only a Milestone (any case). */
const UNSET_EVENT_CATEGORIES = `not exists (select 1 from "list_items" l where l.account_id = a.id and l.kind = 'event_category' and lower(l.name) <> 'milestone')`;

export class Migration20261204000001CalendarListDefaults extends Migration {
  override async up(): Promise<void> {
    this.addSql(`update "list_items" m set "position" = 4, "updated_at" = now()
      from "accounts" a
      where m.account_id = a.id and m.kind = 'event_category' and lower(m.name) = 'milestone' and ${UNSET_EVENT_CATEGORIES}`);
    this.addSql(`insert into "list_items" ("account_id", "kind", "name", "position", "created_at", "updated_at")
      select a.id, 'event_category', d.name, d.position, now(), now()
        from "accounts" a cross join ${EVENT_CATEGORIES}
       where ${UNSET_EVENT_CATEGORIES}
         and not exists (select 1 from "list_items" l where l.account_id = a.id and l.kind = 'event_category' and lower(l.name) = lower(d.name))`);
    this.addSql(`insert into "list_items" ("account_id", "kind", "name", "hex_color", "position", "created_at", "updated_at")
      select a.id, 'calendar_entry_priority', d.name, d.hex_color, d.position, now(), now()
        from "accounts" a cross join ${PRIORITIES}
       where not exists (select 1 from "list_items" l where l.account_id = a.id and l.kind = 'calendar_entry_priority')`);
  }

  override async down(): Promise<void> {
    // Nothing: the items are the accounts' own from now on (entries and templates may use them,
    // admins may have renamed them); removing them would take what users made with them.
  }
}
