import { Migration } from '@mikro-orm/migrations';

/**
 * Saved searches (DECISIONS: Admin surface: saved searches; src/modules/saved-searches): a user's
 * v3 conditions and sort for one kind of list, private or shared with the account. A user's
 * searches go with the user, an account's with the account.
 */
export class Migration20261126000002SavedSearches extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "saved_searches" ("id" serial primary key, "account_id" int not null, "user_id" int not null, "name" varchar(100) not null, "is_shared" boolean not null default false, "is_default" boolean not null default false, "search_type" text check ("search_type" in ('deals', 'people', 'companies', 'notes', 'calendar_entries')) not null, "query" jsonb not null default '{}', "columns" jsonb not null default '[]', "sort" varchar(200) null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "saved_searches_account_user" on "saved_searches" ("account_id", "user_id")`);
    this.addSql(`create index "saved_searches_account_type" on "saved_searches" ("account_id", "search_type")`);
    this.addSql(
      `alter table "saved_searches" add constraint "saved_searches_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "saved_searches" add constraint "saved_searches_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "saved_searches" cascade`);
  }
}
