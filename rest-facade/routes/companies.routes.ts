import { COMPANY_CONDITIONS, COMPANY_QUERY_FILTERS, COMPANY_SORT } from '../../src/modules/companies/company.conditions';
import { companyResource } from '../resources/company';
import type { HookRequest, RouteDeclaration, SortSpec } from './route-spec';

/** v3 §4.6 list conditions and sort: the company vocabulary, shared with saved searches (src/modules/companies/company.conditions.ts). */
const CONDITIONS = COMPANY_CONDITIONS;
const SORT: SortSpec = COMPANY_SORT;

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

export const COMPANY_ROUTES: readonly RouteDeclaration[] = [
  {
    ...base,
    method: 'GET',
    path: '/companies',
    kind: 'list',
    result: 'companies',
    paging: { default: 100, max: 100 },
    conditions: CONDITIONS,
    queryFilters: COMPANY_QUERY_FILTERS,
    sort: SORT,
    sortTable: 'companies',
    searchId: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/companies/:id',
    op: 'ShowCompany',
    kind: 'show',
    result: 'company',
    hooks: {
      variables: associationVariables,
      doc: {
        query: {
          associations: {
            type: 'text',
            description: 'Associations to include, comma-separated: `people` adds the company’s `people`; other names are ignored.',
          },
        },
      },
    },
  },
  {
    ...base,
    method: 'POST',
    path: '/companies',
    kind: 'create',
    result: 'createCompany.company',
    flags: { check_for_duplicates: { to: 'options.checkForDuplicates', kind: 'boolean' } },
  },
  {
    ...base,
    method: 'PUT',
    path: '/companies/:id',
    kind: 'update',
    result: 'updateCompany.company',
    flags: { deliver_reassignment_email: { to: 'options.deliverReassignmentEmail', kind: 'boolean' } },
  },
  { ...base, method: 'DELETE', path: '/companies/:id', kind: 'delete', result: 'deleteCompany', deleteBody: 'empty' },
];
