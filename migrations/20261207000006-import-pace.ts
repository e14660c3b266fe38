import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 27 §1: an import's time left from the pace of what it is doing now. Reading a file's rows
 * is several times faster than writing them (people: ~30,000 against ~4,000 a second), so one pace
 * for both guessed a sixth of the real time (36 s said with 215 s left). `pace_since` is when the
 * current phase of the current run began (a run's start, and the start of writing), `pace_from`
 * the rows of that phase (staged, then applied) already done at that moment; NULL for imports
 * from before this column, which then fall back to their start.
 */
export class Migration20261207000006ImportPace extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "imports" add column "pace_since" timestamptz null, add column "pace_from" int not null default 0`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "imports" drop column if exists "pace_since", drop column if exists "pace_from"`);
  }
}
