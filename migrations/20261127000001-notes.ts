import { Migration } from '@mikro-orm/migrations';

/**
 * Notes and their comments (issue 12; src/modules/notes/note.entity.ts). A note belongs to a deal,
 * a person and/or a company (at least one: checked by the service, and by the table); its comments
 * go with it, and a note goes with its account and with the record it is about.
 */
export class Migration20261127000001Notes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "notes" ("id" serial primary key, "account_id" int not null, "user_id" int null, "deal_id" int null, "person_id" int null, "company_id" int null, "note_category_id" int null, "title" varchar(255) null, "content" text not null, "notify_user_ids" jsonb not null default '[]', "is_sent_message" boolean null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "notes_associated" check ("deal_id" is not null or "person_id" is not null or "company_id" is not null))`,
    );
    this.addSql(`create index "notes_account_updated" on "notes" ("account_id", "updated_at", "id")`);
    this.addSql(`create index "notes_account_created" on "notes" ("account_id", "created_at", "id")`);
    this.addSql(`create index "notes_deal" on "notes" ("deal_id", "created_at", "id")`);
    this.addSql(`create index "notes_person" on "notes" ("person_id", "created_at", "id")`);
    this.addSql(`create index "notes_company" on "notes" ("company_id", "created_at", "id")`);
    this.addSql(
      `alter table "notes" add constraint "notes_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_deal_id_foreign" foreign key ("deal_id") references "deals" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_person_id_foreign" foreign key ("person_id") references "people" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_note_category_id_foreign" foreign key ("note_category_id") references "list_items" ("id") on update cascade on delete set null`,
    );

    this.addSql(
      `create table "comments" ("id" serial primary key, "account_id" int not null, "note_id" int not null, "user_id" int null, "edited_by_id" int null, "comment" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`,
    );
    this.addSql(`create index "comments_note_created" on "comments" ("note_id", "created_at", "id")`);
    this.addSql(`create index "comments_account_created" on "comments" ("account_id", "created_at", "id")`);
    this.addSql(
      `alter table "comments" add constraint "comments_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "comments" add constraint "comments_note_id_foreign" foreign key ("note_id") references "notes" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "comments" add constraint "comments_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "comments" add constraint "comments_edited_by_id_foreign" foreign key ("edited_by_id") references "users" ("id") on update cascade on delete set null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "comments" cascade`);
    this.addSql(`drop table if exists "notes" cascade`);
  }
}
