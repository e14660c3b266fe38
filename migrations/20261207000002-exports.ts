import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 27 §2: bulk exports. One row per export a user started: what (resource, format, the
 * checked filter as JSON), as whom (user and, for a scoped key, its scopes), where it is (state,
 * counts, a worker's lease and attempts), and what it made (the stored file, the change-feed cursor
 * of its snapshot, the download token and its SHA-256 digest, by which the link is looked up).
 */
export class Migration20261207000002Exports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "exports" (
      "id" serial primary key,
      "account_id" int not null references "accounts" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "scopes" jsonb null,
      "resource" varchar(20) not null,
      "format" varchar(10) not null,
      "filter" jsonb not null default '{}',
      "state" varchar(10) not null default 'queued',
      "cancel_requested" boolean not null default false,
      "rows_total" int null,
      "rows_exported" int not null default 0,
      "failure" varchar(500) null,
      "attempts" int not null default 0,
      "lease_until" timestamptz null,
      "storage_key" varchar(200) null,
      "download_token" varchar(64) null,
      "download_token_digest" varchar(64) null,
      "changes_cursor" text null,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "finished_at" timestamptz null,
      "expires_at" timestamptz null
    )`);
    this.addSql(`create index "exports_account_id_user_id_index" on "exports" ("account_id", "user_id", "id")`);
    this.addSql(`create unique index "exports_download_token_digest_unique" on "exports" ("download_token_digest")`);
    this.addSql(`create index "exports_unfinished_index" on "exports" ("id") where "state" in ('queued', 'running')`);
    this.addSql(`create index "exports_expires_at_index" on "exports" ("expires_at") where "storage_key" is not null`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "exports"`);
  }
}
