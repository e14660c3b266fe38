import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26 §4, merges: `merged_ids` of people and companies, the databaseIds of the records merged
 * into each (mergePeople, mergeCompanies). A merge always changes it, so the survivor's change is
 * recorded as an update (migration 20261203000001) even when no other field of it changed.
 */
export class Migration20261206000003MergedIds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "people" add column "merged_ids" jsonb not null default '[]'`);
    this.addSql(`alter table "companies" add column "merged_ids" jsonb not null default '[]'`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "people" drop column "merged_ids"`);
    this.addSql(`alter table "companies" drop column "merged_ids"`);
  }
}
