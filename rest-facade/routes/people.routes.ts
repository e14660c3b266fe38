import { PERSON_CONDITIONS, PERSON_QUERY_FILTERS, PERSON_SORT } from '../../src/modules/people/person.conditions';
import { personResource } from '../resources/person';
import type { FlagSpec, RouteDeclaration, SortSpec } from './route-spec';

/** v3 §4.4 list conditions and sort: the person vocabulary, shared with saved searches (src/modules/people/person.conditions.ts). */
const CONDITIONS = PERSON_CONDITIONS;
const QUERY_FILTERS = PERSON_QUERY_FILTERS;
const SORT: SortSpec = PERSON_SORT;

/** v3 §4.4 create/update parameters outside person[...]; todo templates are refused by the core until they exist. */
const TODO_FLAGS: Readonly<Record<string, FlagSpec>> = {
  todo_template_id: { to: 'options.todoTemplateId', kind: 'id' },
  todo_template_user_id: { to: 'options.todoTemplateUserId', kind: 'id' },
};

const base = { resource: personResource, errorShape: 'array' } as const;
// DECISIONS (Paging): people default to 30, at most 100.
const list = {
  ...base,
  kind: 'list',
  result: 'people',
  paging: { default: 30, max: 100 },
  conditions: CONDITIONS,
  sort: SORT,
  sortTable: 'people',
  searchId: true,
} as const;

export const PEOPLE_ROUTES: readonly RouteDeclaration[] = [
  { ...list, method: 'GET', path: '/people', queryFilters: QUERY_FILTERS },
  // v3 §4.6: a company's people (the company filter comes from the path).
  { ...list, method: 'GET', path: '/companies/:id/people', pathFilters: { id: 'companyId' } },
  { ...base, method: 'GET', path: '/people/:id', kind: 'show', result: 'person' },
  {
    ...base,
    method: 'POST',
    path: '/people',
    kind: 'create',
    result: 'createPerson.person',
    flags: {
      check_for_duplicates: { to: 'options.checkForDuplicates', kind: 'boolean' },
      deliver_assignment_email: { to: 'options.deliverAssignmentEmail', kind: 'boolean' },
      ...TODO_FLAGS,
    },
  },
  {
    ...base,
    method: 'PUT',
    path: '/people/:id',
    kind: 'update',
    result: 'updatePerson.person',
    flags: { deliver_reassignment_email: { to: 'options.deliverReassignmentEmail', kind: 'boolean' }, ...TODO_FLAGS },
  },
  { ...base, method: 'DELETE', path: '/people/:id', kind: 'delete', result: 'deletePerson', deleteBody: 'empty' },
];
