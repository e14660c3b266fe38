import { Migration } from '@mikro-orm/migrations';

/** Issue 27 §2: an export in the order its list takes (`orderBy`, the list's order keys); null: by databaseId. */
export class Migration20261207000004ExportOrder extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "exports" add column "order_by" jsonb null`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "exports" drop column if exists "order_by"`);
  }
}
