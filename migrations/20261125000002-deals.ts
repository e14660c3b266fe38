import { Migration } from '@mikro-orm/migrations';

/**
 * Deals (v3 §2.5): the deals table with exact money columns (numeric(19,4)), the people of each
 * deal and the users each deal is shared with (both join tables, cascading with either side), and
 * the indexes the list's filters and sorts use, each with the account first; and the todo
 * template applications of people and deals, pending until calendar entries exist. Generated from the
 * entities (src/modules/deals/deal.entity.ts); the schema test holds them equal.
 */
export class Migration20261125000002Deals extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "deals" ("id" serial primary key, "account_id" int not null, "owner_id" int null, "company_id" int null, "primary_contact_id" int null, "stage_id" int null, "loss_reason_id" int null, "source_id" int null, "last_modified_by_id" int null, "name" varchar(255) not null, "summary" text null, "status" smallint null, "probability" smallint null, "expected_close_date" date null, "closed_time" timestamptz null, "is_archived" boolean not null default false, "loss_reason_notes" text null, "value" numeric(19,4) null, "bonus" numeric(19,4) null, "commission" numeric(19,4) null, "commission_rate" numeric(7,4) null, "custom_fields" jsonb not null default '{}', "import_id" int null, "is_example" boolean not null default false, "viewed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql('create index "deals_account_name_lower" on "deals" ("account_id", lower("name"), "id")');
    this.addSql('create index "deals_name_trgm" on "deals" using gin ("name" gin_trgm_ops)');
    for (const [name, columns] of [
      ['deals_account_probability', '"account_id", "probability", "id"'],
      ['deals_account_closed_time', '"account_id", "closed_time", "id"'],
      ['deals_account_updated', '"account_id", "updated_at", "id"'],
      ['deals_account_created', '"account_id", "created_at", "id"'],
      ['deals_account_expected_close', '"account_id", "expected_close_date", "id"'],
      ['deals_account_value', '"account_id", "value", "id"'],
      ['deals_account_source', '"account_id", "source_id", "id"'],
      ['deals_account_company', '"account_id", "company_id"'],
      ['deals_account_stage', '"account_id", "stage_id", "id"'],
      ['deals_account_owner', '"account_id", "owner_id", "id"'],
    ]) {
      this.addSql(`create index "${name}" on "deals" (${columns})`);
    }
    this.addSql(
      'create table "deal_people" ("deal_id" int not null, "person_id" int not null, constraint "deal_people_pkey" primary key ("deal_id", "person_id"))',
    );
    this.addSql('create index "deal_people_person" on "deal_people" ("person_id", "deal_id")');
    this.addSql(
      'create table "deal_collaborators" ("deal_id" int not null, "user_id" int not null, constraint "deal_collaborators_pkey" primary key ("deal_id", "user_id"))',
    );
    this.addSql('create index "deal_collaborators_user" on "deal_collaborators" ("user_id", "deal_id")');
    for (const [column, target, rule] of [
      ['account_id', 'accounts', 'cascade'],
      ['owner_id', 'users', 'set null'],
      ['company_id', 'companies', 'set null'],
      ['primary_contact_id', 'people', 'set null'],
      ['stage_id', 'deal_stages', 'set null'],
      ['loss_reason_id', 'list_items', 'set null'],
      ['source_id', 'list_items', 'set null'],
      ['last_modified_by_id', 'users', 'set null'],
    ]) {
      this.addSql(
        `alter table "deals" add constraint "deals_${column}_foreign" foreign key ("${column}") references "${target}" ("id") on update cascade on delete ${rule}`,
      );
    }
    for (const [table, column, target] of [
      ['deal_people', 'deal_id', 'deals'],
      ['deal_people', 'person_id', 'people'],
      ['deal_collaborators', 'deal_id', 'deals'],
      ['deal_collaborators', 'user_id', 'users'],
    ]) {
      this.addSql(
        `alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "${target}" ("id") on update cascade on delete cascade`,
      );
    }
    this.applications();
  }

  /** Todo templates applied to people and deals, kept pending until calendar entries exist. */
  private applications(): void {
    this.addSql(
      `create table "todo_template_applications" ("id" serial primary key, "account_id" int not null, "template_id" int not null, "record_type" varchar(20) not null, "record_id" int not null, "user_id" int null, "status" varchar(20) not null default 'pending', "created_at" timestamptz not null)`,
    );
    this.addSql('create index "todo_template_applications_pending" on "todo_template_applications" ("account_id", "status")');
    this.addSql(
      'alter table "todo_template_applications" add constraint "todo_template_applications_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "todo_template_applications" add constraint "todo_template_applications_template_id_foreign" foreign key ("template_id") references "todo_templates" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "todo_template_applications" add constraint "todo_template_applications_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "todo_template_applications" cascade');
    this.addSql('drop table if exists "deal_collaborators" cascade');
    this.addSql('drop table if exists "deal_people" cascade');
    this.addSql('drop table if exists "deals" cascade');
  }
}
