import { Migration } from '@mikro-orm/migrations';

/**
 * Account notifications (v3 §2.9; src/modules/account-notifications): a text for one user of the
 * account, read (`read_at`) or not, seen or not, with or without a popup. A user's notifications go
 * with the user, an account's with the account. Lists read the newest first, per user or (admins)
 * for the whole account.
 */
export class Migration20261127000004AccountNotifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "account_notifications" ("id" serial primary key, "account_id" int not null, "user_id" int not null, "text" text not null, "read_at" timestamptz null, "seen" boolean not null default false, "hide_popup" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "account_notifications_account_user_created" on "account_notifications" ("account_id", "user_id", "created_at")`);
    this.addSql(`create index "account_notifications_account_created" on "account_notifications" ("account_id", "created_at")`);
    this.addSql(
      `alter table "account_notifications" add constraint "account_notifications_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "account_notifications" add constraint "account_notifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "account_notifications" cascade`);
  }
}
