import { CUSTOM_LABELS, type ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';
import { sourcePath } from '../../kit/source-path';
import type { ConditionVocabulary } from '../../kit/v3/vocabulary';

/*
 * The v3 vocabulary of deal lists (v3 §4.5), beside the deal fields: the facade's /deals routes
 * and saved deal searches read conditions and sort with these tables (src/kit/v3/conditions.ts).
 * Each `to` names a DealFilter field; the facade's agreement check holds them to the schema.
 */

/** v3 §4.5 list conditions; DECISIONS: ranges, ids as one, a list or an array; like-matches ignore case. */
export const DEAL_CONDITIONS: ConditionVocabulary = {
  filter: 'DealFilter',
  root: 'deal',
  text: 'like',
  source: sourcePath(__filename),
  // The company's own fields: v3 names a deal's company by `company_id` (and `deal_company_name`).
  none: { company: 'conditions on the related company are GraphQL only' },
  fixed: {
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
    // DECISIONS: `conditions[custom_label_N][from]/[to]`, `conditions[custom_label_N][]=entry_id`.
    [CUSTOM_LABELS]: { to: 'customFields', kind: 'customLabel' },
  },
};

/** DECISIONS: `user_id` (the older Ruby client's `user.deals`), `company_id`, `person_id` as plain params. */
export const DEAL_QUERY_FILTERS: ConditionTable = {
  user_id: { to: 'ownerId', kind: 'ids' },
  company_id: { to: 'companyId', kind: 'ids' },
  person_id: { to: 'personIds', kind: 'ids' },
};

/** v3 §4.5 sort: deals.name, owner_id, source_id, probability, expected_close_date, created_at, updated_at, closed_time. */
export const DEAL_SORT: V3SortSpec = { aliases: { user_id: 'OWNER_ID' } };
