import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 27 §1: bulk imports as jobs. `import_uploads` are files a user streamed in (storage keys,
 * expiring when unused); `imports` carry a job's state, counters and checkpoints (`staged_through`,
 * `applied_through`: file record numbers) and a worker's lease; `import_rows` is the UNLOGGED
 * staging table the worker COPYs valid rows into; `import_errors` the rows refused (the failed-rows CSV
 * reads the stored file again beside them, by row number).
 */
export class Migration20261207000001Imports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "import_uploads" (
      "id" serial primary key,
      "account_id" int not null references "accounts" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "api_key_id" int null,
      "storage_key" text not null,
      "format" text not null check ("format" in ('csv', 'jsonl')),
      "bytes" bigint not null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null
    )`);
    this.addSql(`create index "import_uploads_expires_at_index" on "import_uploads" ("expires_at")`);
    this.addSql(`create table "imports" (
      "id" serial primary key,
      "account_id" int not null references "accounts" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "api_key_id" int null,
      "resource" text not null check ("resource" in ('people', 'companies', 'deals')),
      "mode" text not null check ("mode" in ('create', 'update', 'upsert')),
      "match_by" text null,
      "external_id_field" text null,
      "dry_run" boolean not null default false,
      "format" text not null check ("format" in ('csv', 'jsonl')),
      "mapping" jsonb null,
      "header" jsonb null,
      "source_url" text null,
      "storage_key" text null,
      "state" text not null default 'queued' check ("state" in ('queued', 'running', 'done', 'failed', 'cancelled')),
      "rows_total" int null,
      "rows_staged" int not null default 0,
      "staged_through" int not null default 0,
      "staging_done" boolean not null default false,
      "applied_through" int not null default 0,
      "rows_processed" int not null default 0,
      "rows_created" int not null default 0,
      "rows_updated" int not null default 0,
      "rows_unchanged" int not null default 0,
      "rows_failed" int not null default 0,
      "failure" text null,
      "cancel_requested" boolean not null default false,
      "lease_until" timestamptz null,
      "attempts" int not null default 0,
      "created_at" timestamptz not null,
      "started_at" timestamptz null,
      "finished_at" timestamptz null
    )`);
    this.addSql(`create index "imports_account_id_id_index" on "imports" ("account_id", "id")`);
    this.addSql(`create index "imports_due" on "imports" ("id") where "state" in ('queued', 'running')`);
    // Staging: UNLOGGED (fast COPY, no WAL). A PostgreSQL crash empties it; the worker then stages
    // again from its last applied row (import.job.ts), so nothing is lost.
    this.addSql(`create unlogged table "import_rows" (
      "import_id" int not null,
      "row_number" int not null,
      "match_key" text null,
      "data" jsonb not null,
      primary key ("import_id", "row_number")
    )`);
    this.addSql(`create index "import_rows_match_key" on "import_rows" ("import_id", "match_key") where "match_key" is not null`);
    this.addSql(`create table "import_errors" (
      "id" bigserial primary key,
      "import_id" int not null references "imports" ("id") on delete cascade,
      "row_number" int not null,
      "column" text null,
      "code" text not null,
      "message" text not null
    )`);
    this.addSql(`create index "import_errors_import_row" on "import_errors" ("import_id", "row_number", "id")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "import_errors"`);
    this.addSql(`drop table if exists "import_rows"`);
    this.addSql(`drop table if exists "imports"`);
    this.addSql(`drop table if exists "import_uploads"`);
  }
}
