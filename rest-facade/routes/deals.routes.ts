import { DEAL_CONDITIONS, DEAL_QUERY_FILTERS, DEAL_SORT } from '../../src/modules/deals/deal.conditions';
import { dealResource } from '../resources/deal';
import { personResource } from '../resources/person';
import { toBoolean } from '../request/coerce';
import { CUSTOM_LABEL_PATTERN, DECIMAL_STRING } from '../openapi/json-schema';
import { formatNumeric } from '../response/numeric';
import type { FlagSpec, HookRequest, RouteHooks, RouteDeclaration, SortSpec } from './route-spec';

/** v3 §4.5 list conditions and sort: the deal vocabulary, shared with saved searches (src/modules/deals/deal.conditions.ts). */
const CONDITIONS = DEAL_CONDITIONS;
const QUERY_FILTERS = DEAL_QUERY_FILTERS;
const SORT: SortSpec = DEAL_SORT;

const TODO_FLAGS: Readonly<Record<string, FlagSpec>> = {
  todo_template_id: { to: 'options.todoTemplateId', kind: 'id' },
  todo_template_user_id: { to: 'options.todoTemplateUserId', kind: 'id' },
};

/** `totals=true` (v3 §4.5; DECISIONS: Responses): the sums go in the envelope beside the page. */
const TOTALS: RouteHooks = {
  variables: (variables, { query }: HookRequest) => ({
    ...variables,
    withTotals: query.totals === undefined ? false : toBoolean(query.totals, 'totals') === true,
  }),
  reply: (reply, payload, _request, data) => {
    const totals = (payload as { totals?: { customFields?: ReadonlyArray<{ label: string; value: string }> } } | null)?.totals;
    if (!totals || reply.status !== 200) return reply;
    // DECISIONS (Responses): numeric and currency `custom_label_N` beside value, bonus, commission;
    // a numeric one shown as its records show it ("23.0"), currency ones as money ("1250.00").
    const numeric = new Set((data.numericFields as { nodes?: ReadonlyArray<{ label: string }> } | undefined)?.nodes?.map((n) => n.label));
    const { customFields = [], ...money } = totals;
    const custom = customFields.map((t) => [t.label, numeric.has(t.label) ? formatNumeric(t.value) : t.value]);
    return { ...reply, body: { ...(reply.body as object), totals: { ...money, ...Object.fromEntries(custom) } } };
  },
  doc: {
    query: { totals: { type: 'boolean', description: 'Adds `totals` to the envelope: sums over every matching deal, not only the page (v3 §4.5).' } },
    envelope: {
      totals: {
        type: 'object',
        description:
          'With `totals=true`: value, bonus, commission and each numeric or currency custom field, summed over every matching deal, as decimal strings.',
        properties: { value: DECIMAL_STRING, bonus: DECIMAL_STRING, commission: DECIMAL_STRING },
        patternProperties: { [CUSTOM_LABEL_PATTERN]: { type: ['string', 'null'] } },
        additionalProperties: false,
      },
    },
  },
};

const base = { resource: dealResource, errorShape: 'array' } as const;
// DECISIONS (Paging): deals default to 200 a page, at most 200.
const list = {
  ...base,
  method: 'GET',
  kind: 'list',
  paging: { default: 200, max: 200 },
  conditions: CONDITIONS,
  sort: SORT,
  sortTable: 'deals',
  searchId: true,
  hooks: TOTALS,
} as const;

export const DEAL_ROUTES: readonly RouteDeclaration[] = [
  { ...list, path: '/deals', op: 'ListDeals', result: 'deals', queryFilters: QUERY_FILTERS },
  // v3 §4.6 / §4.4: a company's and a person's deals (the parent comes from the path; a hidden one is a 404).
  { ...list, path: '/companies/:id/deals', op: 'CompanyDeals', result: 'deals', pathFilters: { id: 'companyId' } },
  { ...list, path: '/people/:id/deals', op: 'PersonDeals', result: 'deals', pathFilters: { id: 'personIds' } },
  // DECISIONS: a missing deal is 404 (not the listed 422).
  { ...base, method: 'GET', path: '/deals/:id', kind: 'show', result: 'deal' },
  { ...base, method: 'POST', path: '/deals', kind: 'create', result: 'createDeal.deal', flags: TODO_FLAGS },
  { ...base, method: 'PUT', path: '/deals/:id', kind: 'update', result: 'updateDeal.deal', flags: TODO_FLAGS },
  { ...base, method: 'DELETE', path: '/deals/:id', kind: 'delete', result: 'deleteDeal', deleteBody: 'empty' },
  // v3 §4.5: the deal's people (people shape, people paging).
  {
    resource: personResource,
    errorShape: 'array',
    method: 'GET',
    kind: 'list',
    path: '/deals/:id/people',
    result: 'people',
    paging: { default: 30, max: 100 },
    pathFilters: { id: 'dealIds' },
    sort: { aliases: { user_id: 'OWNER_ID' } },
    sortTable: 'people',
    searchId: true,
  },
];
