import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 27 §1: an import's progress while its file is still being read, and its file's removal.
 * `file_bytes` is the stored file's size (an upload's, or a fetched file's once fetched) and
 * `staged_bytes` how much of it the staging had read at its last checkpoint: together they
 * estimate the rows of a file not yet counted. Finished imports keep their file for the failed-rows
 * download until IMPORT_FILE_RETENTION_DAYS; the sweep finds them by the partial index.
 */
export class Migration20261207000003ImportFileProgress extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "imports" add column "file_bytes" bigint null, add column "staged_bytes" bigint not null default 0`);
    this.addSql(
      `update "imports" i set "file_bytes" = u."bytes" from "import_uploads" u where u."storage_key" = i."storage_key" and i."storage_key" is not null`,
    );
    this.addSql(`create index "imports_kept_files" on "imports" ("finished_at") where "storage_key" is not null and "finished_at" is not null`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "imports_kept_files"`);
    this.addSql(`alter table "imports" drop column if exists "file_bytes", drop column if exists "staged_bytes"`);
  }
}
