import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes matching the default list orders exactly (expression and the `id` tie-breaker), so a
 * page is an index-ordered scan that stops after `limit` rows instead of sorting every match.
 */
export class Migration20261122000002ListOrderIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "people_account_default_order" on "people" ("account_id", lower("last_name"), lower("first_name"), "id")`);
    this.addSql(`create index "companies_account_default_order" on "companies" ("account_id", lower("name"), "id")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "people_account_default_order"`);
    this.addSql(`drop index if exists "companies_account_default_order"`);
  }
}
