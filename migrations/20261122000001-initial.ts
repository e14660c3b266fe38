import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts, users, apps, admin lists, custom field definitions, companies, people and the outbox.
 * Like-match conditions get trigram (substring) or lower(..) text_pattern_ops (prefix) indexes.
 */
export class Migration20261122000001Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm`);
    this.addSql(
      `create table "accounts" ("id" serial primary key, "name" varchar(200) not null, "currency_code" varchar(3) not null default 'USD', "time_zone" varchar(64) not null default 'UTC', "created_at" timestamptz not null)`,
    );
    this.addSql(
      `create table "api_apps" ("id" serial primary key, "name" varchar(200) not null, "key_hash" varchar(64) not null, "created_at" timestamptz not null)`,
    );
    this.addSql(`alter table "api_apps" add constraint "api_apps_key_hash_unique" unique ("key_hash")`);
    this.addSql(
      `create table "custom_fields" ("id" serial primary key, "account_id" int not null, "resource" text check ("resource" in ('person', 'company', 'deal')) not null, "kind" text check ("kind" in ('text', 'number', 'date', 'dropdown', 'multi_select')) not null, "name" varchar(100) not null, "choices" jsonb not null default '[]', "position" int not null default 0)`,
    );
    this.addSql(`create index "custom_fields_account_id_resource_index" on "custom_fields" ("account_id", "resource")`);
    this.addSql(
      `create table "list_items" ("id" serial primary key, "account_id" int not null, "kind" text check ("kind" in ('lead_status', 'lead_source', 'contact_tag', 'note_category')) not null, "name" varchar(100) not null, "hex_color" varchar(7) null, "position" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "list_items_account_id_kind_position_index" on "list_items" ("account_id", "kind", "position")`);
    this.addSql(
      `create table "users" ("id" serial primary key, "account_id" int not null, "email" varchar(254) not null, "first_name" varchar(100) null, "last_name" varchar(100) null, "time_zone" varchar(64) null, "is_admin" boolean not null default false, "visibility" text check ("visibility" in ('all', 'own')) not null default 'all', "api_key_hash" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`alter table "users" add constraint "users_api_key_hash_unique" unique ("api_key_hash")`);
    this.addSql(`create index "users_account_id_index" on "users" ("account_id")`);
    this.addSql(
      `create table "outbox_messages" ("id" serial primary key, "account_id" int not null, "recipient_id" int not null, "kind" varchar(64) not null, "subject_type" varchar(32) not null, "subject_id" int not null, "payload" jsonb not null default '{}', "status" text check ("status" in ('pending', 'sent', 'failed')) not null default 'pending', "created_at" timestamptz not null, "sent_at" timestamptz null)`,
    );
    this.addSql(`create index "outbox_messages_account_id_recipient_id_index" on "outbox_messages" ("account_id", "recipient_id")`);
    this.addSql(`create index "outbox_messages_status_created_at_index" on "outbox_messages" ("status", "created_at")`);
    this.addSql(
      `create table "companies" ("id" serial primary key, "account_id" int not null, "owner_id" int null, "name" varchar(255) not null, "description" text null, "email" varchar(255) null, "web" varchar(255) null, "fax" varchar(100) null, "address1" varchar(255) null, "address2" varchar(255) null, "city" varchar(100) null, "state" varchar(100) null, "postal_code" varchar(30) null, "country" varchar(100) null, "phone1" varchar(100) null, "phone2" varchar(100) null, "phone3" varchar(100) null, "phone4" varchar(100) null, "phone1desc" varchar(100) null, "phone2desc" varchar(100) null, "phone3desc" varchar(100) null, "phone4desc" varchar(100) null, "image_url" varchar(2000) null, "custom_fields" jsonb not null default '{}', "import_id" int null, "imported_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "companies_account_id_updated_at_index" on "companies" ("account_id", "updated_at")`);
    this.addSql(`create index "companies_account_id_created_at_index" on "companies" ("account_id", "created_at")`);
    this.addSql(`create index "companies_account_id_owner_id_index" on "companies" ("account_id", "owner_id")`);
    this.addSql(
      `create table "people" ("id" serial primary key, "account_id" int not null, "owner_id" int null, "company_id" int null, "lead_status_id" int null, "lead_source_id" int null, "type" text check ("type" in ('Contact', 'Lead')) not null default 'Contact', "first_name" varchar(100) null, "last_name" varchar(100) not null, "summary" text null, "position" varchar(255) null, "website" varchar(255) null, "phone" varchar(100) null, "home_phone" varchar(100) null, "mobile" varchar(100) null, "fax" varchar(100) null, "email" varchar(255) null, "email2" varchar(255) null, "home_email" varchar(255) null, "image_url" varchar(2000) null, "work_address1" varchar(255) null, "work_address2" varchar(255) null, "work_city" varchar(100) null, "work_state" varchar(100) null, "work_country" varchar(100) null, "work_postal_code" varchar(30) null, "home_address1" varchar(255) null, "home_address2" varchar(255) null, "home_city" varchar(100) null, "home_state" varchar(100) null, "home_country" varchar(100) null, "home_postal_code" varchar(30) null, "facebook_url" varchar(500) null, "linked_in_url" varchar(500) null, "twitter" varchar(100) null, "instant_message" varchar(100) null, "unsubscribed" boolean not null default false, "bounced" boolean not null default false, "last_emailed_at" timestamptz null, "converted_at" timestamptz null, "viewed_at" timestamptz null, "tag_ids" jsonb not null default '[]', "custom_fields" jsonb not null default '{}', "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "people_account_id_updated_at_index" on "people" ("account_id", "updated_at")`);
    this.addSql(`create index "people_account_id_created_at_index" on "people" ("account_id", "created_at")`);
    this.addSql(`create index "people_account_id_last_name_index" on "people" ("account_id", "last_name")`);
    this.addSql(`create index "people_account_id_company_id_index" on "people" ("account_id", "company_id")`);
    this.addSql(`create index "people_account_id_owner_id_index" on "people" ("account_id", "owner_id")`);
    this.addSql(
      `alter table "custom_fields" add constraint "custom_fields_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "list_items" add constraint "list_items_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "users" add constraint "users_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "outbox_messages" add constraint "outbox_messages_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "outbox_messages" add constraint "outbox_messages_recipient_id_foreign" foreign key ("recipient_id") references "users" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "companies" add constraint "companies_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "companies" add constraint "companies_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "people" add constraint "people_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "people" add constraint "people_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "people" add constraint "people_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "people" add constraint "people_lead_status_id_foreign" foreign key ("lead_status_id") references "list_items" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "people" add constraint "people_lead_source_id_foreign" foreign key ("lead_source_id") references "list_items" ("id") on update cascade on delete set null`,
    );
    this.addSql(`create unique index "users_account_id_email_unique" on "users" ("account_id", lower("email"))`);
    this.addSql(`create unique index "list_items_account_kind_name_unique" on "list_items" ("account_id", "kind", lower("name"))`);
    this.addSql(`create index "custom_fields_account_label" on "custom_fields" ("account_id", "resource", "position")`);
    this.addSql(`create index "people_name_trgm" on "people" using gin ((coalesce("first_name", '') || ' ' || "last_name") gin_trgm_ops)`);
    this.addSql(
      `create index "people_emails_trgm" on "people" using gin ((coalesce("email", '') || ' ' || coalesce("email2", '') || ' ' || coalesce("home_email", '')) gin_trgm_ops)`,
    );
    this.addSql(
      `create index "people_phones_trgm" on "people" using gin ((coalesce("phone", '') || ' ' || coalesce("mobile", '') || ' ' || coalesce("home_phone", '')) gin_trgm_ops)`,
    );
    this.addSql(`create index "people_work_city_trgm" on "people" using gin ("work_city" gin_trgm_ops)`);
    this.addSql(`create index "people_work_state_trgm" on "people" using gin ("work_state" gin_trgm_ops)`);
    this.addSql(`create index "people_work_postal_code_trgm" on "people" using gin ("work_postal_code" gin_trgm_ops)`);
    this.addSql(`create index "people_position_trgm" on "people" using gin ("position" gin_trgm_ops)`);
    this.addSql(`create index "people_account_lead_status" on "people" ("account_id", "lead_status_id")`);
    this.addSql(`create index "people_account_lead_source" on "people" ("account_id", "lead_source_id")`);
    this.addSql(`create index "people_account_type" on "people" ("account_id", "type")`);
    this.addSql(`create index "people_account_converted_at" on "people" ("account_id", "converted_at")`);
    this.addSql(`create index "people_account_first_name" on "people" ("account_id", "first_name")`);
    this.addSql(`create index "people_tag_ids" on "people" using gin ("tag_ids" jsonb_path_ops)`);
    this.addSql(`create index "companies_name_trgm" on "companies" using gin ("name" gin_trgm_ops)`);
    this.addSql(`create index "companies_account_name_lower" on "companies" ("account_id", lower("name") text_pattern_ops)`);
    this.addSql(`create index "companies_account_name" on "companies" ("account_id", "name")`);
    this.addSql(`create index "companies_description_prefix" on "companies" ("account_id", lower(left("description", 200)) text_pattern_ops)`);
    this.addSql(`create index "companies_email_prefix" on "companies" ("account_id", lower("email") text_pattern_ops)`);
    this.addSql(`create index "companies_fax_prefix" on "companies" ("account_id", lower("fax") text_pattern_ops)`);
    this.addSql(`create index "companies_phone1_prefix" on "companies" ("account_id", lower("phone1") text_pattern_ops)`);
    this.addSql(`create index "companies_phone2_prefix" on "companies" ("account_id", lower("phone2") text_pattern_ops)`);
    this.addSql(`create index "companies_phone3_prefix" on "companies" ("account_id", lower("phone3") text_pattern_ops)`);
    this.addSql(`create index "companies_phone4_prefix" on "companies" ("account_id", lower("phone4") text_pattern_ops)`);
    this.addSql(`create index "companies_address1_prefix" on "companies" ("account_id", lower("address1") text_pattern_ops)`);
    this.addSql(`create index "companies_address2_prefix" on "companies" ("account_id", lower("address2") text_pattern_ops)`);
    this.addSql(`create index "companies_city_prefix" on "companies" ("account_id", lower("city") text_pattern_ops)`);
    this.addSql(`create index "companies_state_prefix" on "companies" ("account_id", lower("state") text_pattern_ops)`);
    this.addSql(`create index "companies_postal_code_prefix" on "companies" ("account_id", lower("postal_code") text_pattern_ops)`);
    this.addSql(`create index "companies_country_prefix" on "companies" ("account_id", lower("country") text_pattern_ops)`);
    this.addSql(`create index "companies_account_imported_at" on "companies" ("account_id", "imported_at")`);
  }

  override async down(): Promise<void> {
    for (const table of ['people', 'companies', 'outbox_messages', 'custom_fields', 'list_items', 'users', 'api_apps', 'accounts']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
