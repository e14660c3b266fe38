import type { ConditionTable } from '../request/conditions';
import { companyResource } from '../resources/company';
import type { HookRequest, RouteSpec, SortSpec } from './route-spec';

/** v3 §4.6 list conditions: text ones match exactly or by prefix (DECISIONS: case-insensitive prefix). */
const CONDITIONS: ConditionTable = {
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
};

/** Sorting: CompanyOrderField values (`name`, `-companies.created_at`). */
const SORT: SortSpec = {};

/**
 * v3 §4.6 show: `associations` is a comma-separated list (a form array is accepted too); unknown
 * names are ignored. Each known association switches on its `@include` in ShowCompany.
 */
function associationVariables(variables: Record<string, unknown>, { query }: HookRequest): Record<string, unknown> {
  const raw = query.associations;
  const names = new Set(
    (Array.isArray(raw) ? raw : [raw])
      .filter((v): v is string => typeof v === 'string')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim().toLowerCase()),
  );
  return { ...variables, withPeople: names.has('people') };
}

const base = { resource: companyResource, errorShape: 'array' } as const;

export const COMPANY_ROUTES: readonly RouteSpec[] = [
  {
    ...base, method: 'GET', path: '/companies', op: 'ListCompanies', kind: 'list', result: 'companies',
    paging: { default: 100, max: 100 }, conditions: CONDITIONS, queryFilters: { company_id: { to: 'databaseId', kind: 'ids' } }, sort: SORT, sortTable: 'companies',
  },
  { ...base, method: 'GET', path: '/companies/:id', op: 'ShowCompany', kind: 'show', result: 'company', hooks: { variables: associationVariables } },
  {
    ...base, method: 'POST', path: '/companies', op: 'CreateCompany', kind: 'create', result: 'createCompany.company',
    flags: { check_for_duplicates: { to: 'options.checkForDuplicates', kind: 'boolean' } },
  },
  {
    ...base, method: 'PUT', path: '/companies/:id', op: 'UpdateCompany', kind: 'update', result: 'updateCompany.company',
    flags: { deliver_reassignment_email: { to: 'options.deliverReassignmentEmail', kind: 'boolean' } },
  },
  { ...base, method: 'DELETE', path: '/companies/:id', op: 'DeleteCompany', kind: 'delete', result: 'deleteCompany', deleteBody: 'empty' },
];
