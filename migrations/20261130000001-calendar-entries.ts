import { Migration } from '@mikro-orm/migrations';

/**
 * Calendar entries (issue 14; src/modules/calendar/calendar-entry.entity.ts): tasks (a due date)
 * and events (a start and an end), owned by a user, about a deal, person or company (the three
 * link columns, `association_type` naming which is the association) and tied to a company. A
 * recurring series is its base entry (the RFC 5545 rules, the zone it repeats in) and one entry per
 * occurrence (`base_entry_id`), which go with their base; `active` false marks a deleted series.
 * Links, categories and priorities are cleared when those go; entries go with their account.
 */
export class Migration20261130000001CalendarEntries extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "calendar_entries" ("id" serial primary key, "account_id" int not null, "kind" text check ("kind" in ('task', 'event')) not null, "owner_id" int null, "name" varchar(255) null, "description" text null, "category_id" int null, "calendar_entry_priority_id" int null, "start_time" timestamptz null, "end_time" timestamptz null, "all_day" boolean not null default false, "due_date" date null, "time_zone" varchar(64) not null, "complete" boolean not null default false, "completed_at" timestamptz null, "association_type" text check ("association_type" in ('Deal', 'Person', 'Company')) null, "deal_id" int null, "person_id" int null, "company_id" int null, "active" boolean not null default true, "base_entry_id" int null, "rrule" text null, "rdate" text null, "exrule" text null, "exdate" text null, "recurrence_end" date null, "part_of_recurring_series" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "calendar_entries_account_created" on "calendar_entries" ("account_id", "created_at", "id")`);
    this.addSql(`create index "calendar_entries_account_updated" on "calendar_entries" ("account_id", "updated_at", "id")`);
    this.addSql(`create index "calendar_entries_account_due" on "calendar_entries" ("account_id", "due_date", "id")`);
    this.addSql(`create index "calendar_entries_account_start" on "calendar_entries" ("account_id", "start_time", "id")`);
    this.addSql(`create index "calendar_entries_account_end" on "calendar_entries" ("account_id", "end_time")`);
    this.addSql(`create index "calendar_entries_account_owner" on "calendar_entries" ("account_id", "owner_id")`);
    this.addSql(`create index "calendar_entries_deal" on "calendar_entries" ("deal_id", "created_at", "id")`);
    this.addSql(`create index "calendar_entries_person" on "calendar_entries" ("person_id", "created_at", "id")`);
    this.addSql(`create index "calendar_entries_company" on "calendar_entries" ("company_id", "created_at", "id")`);
    this.addSql(`create index "calendar_entries_category" on "calendar_entries" ("category_id")`);
    this.addSql(`create index "calendar_entries_priority" on "calendar_entries" ("calendar_entry_priority_id")`);
    this.addSql(`create index "calendar_entries_series" on "calendar_entries" ("base_entry_id", "id") where "base_entry_id" is not null`);
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_category_id_foreign" foreign key ("category_id") references "list_items" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_calendar_entry_priority_id_foreign" foreign key ("calendar_entry_priority_id") references "list_items" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_deal_id_foreign" foreign key ("deal_id") references "deals" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_person_id_foreign" foreign key ("person_id") references "people" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "calendar_entries" add constraint "calendar_entries_base_entry_id_foreign" foreign key ("base_entry_id") references "calendar_entries" ("id") on update cascade on delete cascade`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "calendar_entries" cascade`);
  }
}
