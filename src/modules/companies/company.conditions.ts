import { CUSTOM_LABELS, type ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';
import { sourcePath } from '../../kit/source-path';
import type { ConditionVocabulary } from '../../kit/v3/vocabulary';

/*
 * The v3 vocabulary of company lists (v3 §4.6), beside the company fields: the facade's
 * /companies routes and saved company searches read conditions and sort with these tables
 * (src/kit/v3/conditions.ts). Each `to` names a CompanyFilter field.
 */

/** v3 §4.6 list conditions: text ones match exactly or by prefix (DECISIONS: case-insensitive prefix). */
export const COMPANY_CONDITIONS: ConditionVocabulary = {
  filter: 'CompanyFilter',
  root: 'company',
  text: 'prefix',
  source: sourcePath(__filename),
  fixed: {
    company_id: { to: 'databaseId', kind: 'ids' },
    company_name: { to: 'name', kind: 'prefix' },
    company_description: { to: 'description', kind: 'prefix' },
    company_email: { to: 'email', kind: 'prefix' },
    company_phone: { to: 'anyPhone', kind: 'prefix' },
    company_fax: { to: 'fax', kind: 'prefix' },
    company_address: { to: 'address1', kind: 'prefix' },
    company_address2: { to: 'address2', kind: 'prefix' },
    company_city: { to: 'city', kind: 'prefix' },
    company_state: { to: 'state', kind: 'prefix' },
    company_zip: { to: 'postalCode', kind: 'prefix' },
    company_country: { to: 'country', kind: 'prefix' },
    company_created: { to: 'createdAt', kind: 'datetimeRange' },
    company_modified: { to: 'updatedAt', kind: 'datetimeRange' },
    company_imported_at: { to: 'importedAt', kind: 'datetimeRange' },
    company_owner: { to: 'ownerId', kind: 'ids' },
    // DECISIONS: `conditions[custom_label_N][from]/[to]`, `conditions[custom_label_N][]=entry_id`.
    [CUSTOM_LABELS]: { to: 'customFields', kind: 'customLabel' },
  },
};

/** The plain `company_id` parameter (DECISIONS: association filters as plain query params). */
export const COMPANY_QUERY_FILTERS: ConditionTable = { company_id: { to: 'databaseId', kind: 'ids' } };

/** Sorting: CompanyOrderField values (`name`, `-companies.created_at`). */
export const COMPANY_SORT: V3SortSpec = {};
