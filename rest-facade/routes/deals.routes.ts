import type { ConditionTable } from '../request/conditions';
import { dealResource } from '../resources/deal';
import { personResource } from '../resources/person';
import { toBoolean } from '../request/coerce';
import type { FlagSpec, HookRequest, RouteHooks, RouteSpec, SortSpec } from './route-spec';

/** v3 §4.5 list conditions; DECISIONS: ranges, ids as one, a list or an array; like-matches ignore case. */
const CONDITIONS: ConditionTable = {
  deal_id: { to: 'databaseId', kind: 'ids' },
  deal_name: { to: 'name', kind: 'like' },
  deal_percentage: { to: 'probability', kind: 'integer' },
  deal_source: { to: 'sourceId', kind: 'ids' },
  // v3 §4.5: `all` returns the deals of anyone (the viewer may see).
  deal_owner: { to: 'ownerId', kind: 'ids', any: 'all' },
  deal_value: { to: 'value', kind: 'numberRange' },
  deal_stage: { to: 'dealStageId', kind: 'ids' },
  exp_close: { to: 'expectedCloseDate', kind: 'dateRange' },
  deal_created: { to: 'createdAt', kind: 'datetimeRange' },
  deal_modified: { to: 'updatedAt', kind: 'datetimeRange' },
  deal_closed_time: { to: 'closedTime', kind: 'datetimeRange' },
  // Like-matches on the deal's people: each condition met by some person of the deal.
  person_full_name: { to: 'people.some.name', kind: 'like' },
  person_email: { to: 'people.some.anyEmail', kind: 'like' },
  person_phone: { to: 'people.some.anyPhone', kind: 'like' },
  person_city: { to: 'people.some.workCity', kind: 'like' },
  person_state: { to: 'people.some.workState', kind: 'like' },
  person_work_zip: { to: 'people.some.workPostalCode', kind: 'like' },
  person_zip: { to: 'people.some.workPostalCode', kind: 'like' },
  person_company_name: { to: 'people.some.companyName', kind: 'like' },
  // DECISIONS: association filters also arrive inside conditions (newer clients).
  user_id: { to: 'ownerId', kind: 'ids' },
  company_id: { to: 'companyId', kind: 'ids' },
  person_id: { to: 'personIds', kind: 'ids' },
};

/** DECISIONS: `user_id` (the older Ruby client's `user.deals`), `company_id`, `person_id` as plain params. */
const QUERY_FILTERS: ConditionTable = { user_id: { to: 'ownerId', kind: 'ids' }, company_id: { to: 'companyId', kind: 'ids' }, person_id: { to: 'personIds', kind: 'ids' } };

/** v3 §4.5 sort: deals.name, owner_id, source_id, probability, expected_close_date, created_at, updated_at, closed_time. */
const SORT: SortSpec = { aliases: { user_id: 'OWNER_ID' } };

const TODO_FLAGS: Readonly<Record<string, FlagSpec>> = {
  todo_template_id: { to: 'options.todoTemplateId', kind: 'id' },
  todo_template_user_id: { to: 'options.todoTemplateUserId', kind: 'id' },
};

/** `totals=true` (v3 §4.5; DECISIONS: Responses): the sums go in the envelope beside the page. */
const TOTALS: RouteHooks = {
  variables: (variables, { query }: HookRequest) => ({ ...variables, withTotals: query.totals === undefined ? false : toBoolean(query.totals, 'totals') === true }),
  reply: (reply, payload) => {
    const totals = (payload as { totals?: unknown } | null)?.totals;
    return totals && reply.status === 200 ? { ...reply, body: { ...(reply.body as object), totals } } : reply;
  },
};

const base = { resource: dealResource, errorShape: 'array' } as const;
// DECISIONS (Paging): deals default to 200 a page, at most 200.
const list = { ...base, method: 'GET', kind: 'list', paging: { default: 200, max: 200 }, conditions: CONDITIONS, sort: SORT, sortTable: 'deals', hooks: TOTALS } as const;

export const DEAL_ROUTES: readonly RouteSpec[] = [
  { ...list, path: '/deals', op: 'ListDeals', result: 'deals', queryFilters: QUERY_FILTERS },
  // v3 §4.6 / §4.4: a company's and a person's deals (the parent comes from the path; a hidden one is a 404).
  { ...list, path: '/companies/:id/deals', op: 'CompanyDeals', result: 'deals', pathFilters: { id: 'companyId' } },
  { ...list, path: '/people/:id/deals', op: 'PersonDeals', result: 'deals', pathFilters: { id: 'personIds' } },
  // DECISIONS: a missing deal is 404 (not the listed 422).
  { ...base, method: 'GET', path: '/deals/:id', op: 'ShowDeal', kind: 'show', result: 'deal' },
  { ...base, method: 'POST', path: '/deals', op: 'CreateDeal', kind: 'create', result: 'createDeal.deal', flags: TODO_FLAGS },
  { ...base, method: 'PUT', path: '/deals/:id', op: 'UpdateDeal', kind: 'update', result: 'updateDeal.deal', flags: TODO_FLAGS },
  { ...base, method: 'DELETE', path: '/deals/:id', op: 'DeleteDeal', kind: 'delete', result: 'deleteDeal', deleteBody: 'empty' },
  // v3 §4.5: the deal's people (people shape, people paging).
  {
    resource: personResource, errorShape: 'array', method: 'GET', kind: 'list', path: '/deals/:id/people', op: 'DealPeople', result: 'people',
    paging: { default: 30, max: 100 }, pathFilters: { id: 'dealIds' }, sort: { aliases: { user_id: 'OWNER_ID' } }, sortTable: 'people',
  },
];
