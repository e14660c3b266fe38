import { Migration } from '@mikro-orm/migrations';

/**
 * The job queue's table (issue 13 §1), in the shape `@agendajs/postgres-backend` 3.x reads and
 * writes. Created here rather than by the backend on connect (`ensureSchema: false` in
 * src/jobs/backend.ts): several processes connecting at once would race its CREATE statements,
 * and the schema belongs with the others. A backend upgrade that needs new columns gets a new
 * migration.
 */
export class Migration20261129000002Jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "agenda_jobs" (
      "id" uuid primary key default gen_random_uuid(),
      "name" varchar(255) not null,
      "priority" integer not null default 0,
      "next_run_at" timestamptz,
      "type" varchar(10) not null default 'normal' check ("type" in ('normal', 'single')),
      "locked_at" timestamptz,
      "last_finished_at" timestamptz,
      "failed_at" timestamptz,
      "fail_count" integer default null,
      "fail_reason" text,
      "repeat_timezone" varchar(100),
      "last_run_at" timestamptz,
      "repeat_interval" varchar(255),
      "data" jsonb default '{}'::jsonb,
      "repeat_at" varchar(255),
      "disabled" boolean default false,
      "progress" real,
      "fork" boolean default false,
      "last_modified_by" varchar(255),
      "debounce_started_at" timestamptz,
      "start_date" timestamptz,
      "end_date" timestamptz,
      "skip_days" jsonb,
      "created_at" timestamptz default now(),
      "updated_at" timestamptz default now()
    )`);
    // What the backend's queries filter on: the next job of a name to lock, singles by name
    // (the recurring sweep), stale locks, and (ours) the unique key of a record's job.
    this.addSql(
      `create index if not exists "agenda_jobs_find_and_lock_idx" on "agenda_jobs" ("name", "next_run_at", "priority" desc, "locked_at", "disabled") where "disabled" = false`,
    );
    this.addSql(`create unique index if not exists "agenda_jobs_single_job_idx" on "agenda_jobs" ("name") where "type" = 'single'`);
    this.addSql(`create index if not exists "agenda_jobs_locked_at_idx" on "agenda_jobs" ("locked_at") where "locked_at" is not null`);
    this.addSql(`create index if not exists "agenda_jobs_next_run_at_idx" on "agenda_jobs" ("next_run_at") where "next_run_at" is not null`);
    this.addSql(`create index if not exists "agenda_jobs_record_idx" on "agenda_jobs" ("name", (("data"->>'key')))`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agenda_jobs"`);
  }
}
