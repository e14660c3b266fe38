import type { ConditionTable } from '../request/conditions';
import { personResource } from '../resources/person';
import type { FlagSpec, RouteSpec, SortSpec } from './route-spec';

/** v3 §4.4 list conditions: text ones are case-insensitive substring matches (DECISIONS: Conditions). */
const CONDITIONS: ConditionTable = {
  person_id: { to: 'databaseId', kind: 'ids' },
  person_name: { to: 'name', kind: 'like' },
  person_owner: { to: 'ownerId', kind: 'ids' },
  person_city: { to: 'workCity', kind: 'like' },
  person_state: { to: 'workState', kind: 'like' },
  person_zip: { to: 'workPostalCode', kind: 'like' },
  person_position: { to: 'position', kind: 'like' },
  person_company_name: { to: 'companyName', kind: 'like' },
  lead_source: { to: 'leadSourceId', kind: 'ids' },
  person_status: { to: 'leadStatusId', kind: 'ids' },
  person_email: { to: 'anyEmail', kind: 'like' },
  person_full_name: { to: 'name', kind: 'like' },
  person_phone: { to: 'anyPhone', kind: 'like' },
  person_converted: { to: 'convertedAt', kind: 'datetimeRange' },
  person_created: { to: 'createdAt', kind: 'datetimeRange' },
  person_modified: { to: 'updatedAt', kind: 'datetimeRange' },
  person_simple_search: { to: 'search', kind: 'like', raw: true },
  // DECISIONS (Wording): `Lead` or `Contact`.
  person_type: { to: 'type', kind: 'enum', map: { Lead: 'LEAD', Contact: 'CONTACT' } },
  // DECISIONS: association filters also arrive inside conditions (newer clients).
  company_id: { to: 'companyId', kind: 'ids' },
  user_id: { to: 'ownerId', kind: 'ids' },
};

/**
 * DECISIONS: association filters as plain query params: `/people.json?company_id=3`, and `user_id`
 * for the owner (the older official Ruby client's `user.people` sends it).
 */
const QUERY_FILTERS: ConditionTable = { company_id: { to: 'companyId', kind: 'ids' }, user_id: { to: 'ownerId', kind: 'ids' } };

/** Sorting (`people.last_name`, `-people.created_at`): PersonOrderField values, and `user_id` for the owner as in v3. */
const SORT: SortSpec = { aliases: { user_id: 'OWNER_ID' } };

/** v3 §4.4 create/update parameters outside person[...]; todo templates are refused by the core until they exist. */
const TODO_FLAGS: Readonly<Record<string, FlagSpec>> = {
  todo_template_id: { to: 'options.todoTemplateId', kind: 'id' },
  todo_template_user_id: { to: 'options.todoTemplateUserId', kind: 'id' },
};

const base = { resource: personResource, errorShape: 'array' } as const;
// DECISIONS (Paging): people default to 30, at most 100.
const list = { ...base, op: 'ListPeople', kind: 'list', result: 'people', paging: { default: 30, max: 100 }, conditions: CONDITIONS, sort: SORT, sortTable: 'people' } as const;

export const PEOPLE_ROUTES: readonly RouteSpec[] = [
  { ...list, method: 'GET', path: '/people', queryFilters: QUERY_FILTERS },
  // v3 §4.6: a company's people (the company filter comes from the path).
  { ...list, method: 'GET', path: '/companies/:id/people', op: 'CompanyPeople', pathFilters: { id: 'companyId' } },
  { ...base, method: 'GET', path: '/people/:id', op: 'ShowPerson', kind: 'show', result: 'person' },
  {
    ...base, method: 'POST', path: '/people', op: 'CreatePerson', kind: 'create', result: 'createPerson.person',
    flags: {
      check_for_duplicates: { to: 'options.checkForDuplicates', kind: 'boolean' },
      deliver_assignment_email: { to: 'options.deliverAssignmentEmail', kind: 'boolean' },
      ...TODO_FLAGS,
    },
  },
  {
    ...base, method: 'PUT', path: '/people/:id', op: 'UpdatePerson', kind: 'update', result: 'updatePerson.person',
    flags: { deliver_reassignment_email: { to: 'options.deliverReassignmentEmail', kind: 'boolean' }, ...TODO_FLAGS },
  },
  { ...base, method: 'DELETE', path: '/people/:id', op: 'DeletePerson', kind: 'delete', result: 'deletePerson', deleteBody: 'empty' },
];
