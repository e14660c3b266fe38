import { mergeResolver, type MergeDeclaration } from '../common/merge';
import type { Company } from './company.entity';
import { COMPANY_RECORDS } from './company.visibility';

/** What points at a company, moved to the survivor of a merge (every foreign key to companies). */
export const COMPANY_MERGE: MergeDeclaration<Company> = {
  records: COMPANY_RECORDS,
  scope: 'companies:write',
  table: 'companies',
  singular: 'company',
  plural: 'companies',
  mutationPlural: 'Companies',
  keep: ['import_id', 'imported_at'],
  moves: [
    { what: 'people', sql: `update "people" set "company_id" = ? where "company_id" = any(?::int[]) and "account_id" = ?` },
    { what: 'deals', sql: `update "deals" set "company_id" = ? where "company_id" = any(?::int[]) and "account_id" = ?` },
    { what: 'notes', sql: `update "notes" set "company_id" = ? where "company_id" = any(?::int[]) and "account_id" = ?` },
    { what: 'calendar entries', sql: `update "calendar_entries" set "company_id" = ? where "company_id" = any(?::int[]) and "account_id" = ?` },
    { what: 'documents', sql: `update "documents" set "company_id" = ? where "company_id" = any(?::int[]) and "account_id" = ?` },
  ],
};

export const CompanyMergeResolver = mergeResolver(COMPANY_MERGE);
