import { Migration } from '@mikro-orm/migrations';

/**
 * One index per sort key the people and company lists accept (v3 §4.4, §4.6 `sort`), on the same
 * expression the list orders by, with the account first (every list is scoped to one account).
 * Keys already served by an earlier index (owner, company, lead status/source, type, created,
 * updated, converted, default order) are not repeated.
 */
const INDEXES: ReadonlyArray<[string, string, string]> = [
  ['people', 'people_sort_id', '"account_id", "id"'],
  ['people', 'people_sort_first_name', '"account_id", lower("first_name"), "id"'],
  ['people', 'people_sort_last_name', '"account_id", lower("last_name"), "id"'],
  ['people', 'people_sort_email', '"account_id", lower("email"), "id"'],
  ['people', 'people_sort_position', '"account_id", lower("position"), "id"'],
  ['people', 'people_sort_work_city', '"account_id", lower("work_city"), "id"'],
  ['people', 'people_sort_work_state', '"account_id", lower("work_state"), "id"'],
  ['people', 'people_sort_work_country', '"account_id", lower("work_country"), "id"'],
  ['people', 'people_sort_work_postal_code', '"account_id", "work_postal_code", "id"'],
  ['people', 'people_sort_last_emailed_at', '"account_id", "last_emailed_at", "id"'],
  ['companies', 'companies_sort_id', '"account_id", "id"'],
  ['companies', 'companies_sort_city', '"account_id", "city", "id"'],
  ['companies', 'companies_sort_state', '"account_id", "state", "id"'],
  ['companies', 'companies_sort_country', '"account_id", "country", "id"'],
  ['companies', 'companies_sort_postal_code', '"account_id", "postal_code", "id"'],
  ['companies', 'companies_sort_email', '"account_id", "email", "id"'],
];

export class Migration20261122000003SortIndexes extends Migration {
  override async up(): Promise<void> {
    for (const [table, name, columns] of INDEXES) this.addSql(`create index "${name}" on "${table}" (${columns})`);
  }

  override async down(): Promise<void> {
    for (const [, name] of INDEXES) this.addSql(`drop index if exists "${name}"`);
  }
}
