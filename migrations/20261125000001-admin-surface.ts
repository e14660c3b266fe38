import { Migration } from '@mikro-orm/migrations';

/**
 * The admin surface (DECISIONS: Admin surface). Lists that are a name in an order stay in
 * `list_items`, which gains their kinds; lists with fields of their own get tables of their own:
 * deal stages (percent), todo templates and their items, and lead source costs, keyed by the lead
 * source's list item (people refer to lead sources by that id, which stays). Existing accounts get
 * the default deal stages new accounts start with (deal-stage.defaults.ts).
 */
export class Migration20261125000001AdminSurface extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "list_items" drop constraint if exists "list_items_kind_check"`);
    this.addSql(
      `alter table "list_items" add constraint "list_items_kind_check" check("kind" in ('lead_status', 'lead_source', 'contact_tag', 'note_category', 'deal_loss_reason', 'deal_won_reason', 'event_category', 'document_tag', 'calendar_entry_priority'))`,
    );

    this.addSql(
      `create table "lead_source_costs" ("list_item_id" int not null, "account_id" int not null, "cost_per_lead_in_cents" int null, "flat_fee_in_cents" int null, constraint "lead_source_costs_pkey" primary key ("list_item_id"))`,
    );
    this.addSql(
      `alter table "lead_source_costs" add constraint "lead_source_costs_list_item_id_foreign" foreign key ("list_item_id") references "list_items" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "lead_source_costs" add constraint "lead_source_costs_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );

    this.addSql(
      `create table "deal_stages" ("id" serial primary key, "account_id" int not null, "name" varchar(100) not null, "percent" int not null, "position" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "deal_stages_account_position" on "deal_stages" ("account_id", "position")`);
    this.addSql(`create unique index "deal_stages_account_name_unique" on "deal_stages" ("account_id", lower("name"))`);
    this.addSql(
      `alter table "deal_stages" add constraint "deal_stages_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );

    this.addSql(
      `create table "todo_templates" ("id" serial primary key, "account_id" int not null, "name" varchar(100) not null, "template_type" text check ("template_type" in ('people', 'deals')) null, "is_default" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "todo_templates_account" on "todo_templates" ("account_id")`);
    this.addSql(`create unique index "todo_templates_account_name_unique" on "todo_templates" ("account_id", lower("name"))`);
    this.addSql(
      `alter table "todo_templates" add constraint "todo_templates_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );

    this.addSql(
      `create table "todo_template_items" ("id" serial primary key, "account_id" int not null, "todo_template_id" int not null, "description" varchar(255) not null, "due_date" int null, "event_category_id" int null, "calendar_entry_priority_id" int null, "position" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "todo_template_items_template_order" on "todo_template_items" ("account_id", "todo_template_id", "position")`);
    this.addSql(`create index "todo_template_items_event_category" on "todo_template_items" ("event_category_id")`);
    this.addSql(`create index "todo_template_items_priority" on "todo_template_items" ("calendar_entry_priority_id")`);
    this.addSql(
      `alter table "todo_template_items" add constraint "todo_template_items_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "todo_template_items" add constraint "todo_template_items_todo_template_id_foreign" foreign key ("todo_template_id") references "todo_templates" ("id") on update cascade on delete cascade`,
    );
    // Deleting an event category or a priority clears it from template items, never a dangling id.
    this.addSql(
      `alter table "todo_template_items" add constraint "todo_template_items_event_category_id_foreign" foreign key ("event_category_id") references "list_items" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "todo_template_items" add constraint "todo_template_items_calendar_entry_priority_id_foreign" foreign key ("calendar_entry_priority_id") references "list_items" ("id") on update cascade on delete set null`,
    );

    // Existing accounts start with the pipeline new accounts get (src/modules/deal-stages/deal-stage.defaults.ts).
    this.addSql(`insert into "deal_stages" ("account_id", "name", "percent", "position", "created_at", "updated_at")
      select a.id, s.name, s.percent, s.position, now(), now()
      from "accounts" a
      cross join (values ('Incoming', 10, 0), ('Qualified', 25, 1), ('Proposal', 50, 2), ('Negotiation', 75, 3), ('Won', 100, 4), ('Lost', 0, 5)) as s(name, percent, position)
      where not exists (select 1 from "deal_stages" d where d.account_id = a.id)`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "todo_template_items" cascade`);
    this.addSql(`drop table if exists "todo_templates" cascade`);
    this.addSql(`drop table if exists "deal_stages" cascade`);
    this.addSql(`drop table if exists "lead_source_costs" cascade`);
    // Items of the new kinds cannot stay under the old constraint.
    this.addSql(`delete from "list_items" where "kind" not in ('lead_status', 'lead_source', 'contact_tag', 'note_category')`);
    this.addSql(`alter table "list_items" drop constraint if exists "list_items_kind_check"`);
    this.addSql(
      `alter table "list_items" add constraint "list_items_kind_check" check("kind" in ('lead_status', 'lead_source', 'contact_tag', 'note_category'))`,
    );
  }
}
