import { CUSTOM_LABELS, type ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';
import { sourcePath } from '../../kit/source-path';
import type { ConditionVocabulary } from '../../kit/v3/vocabulary';

/*
 * The v3 vocabulary of people lists (v3 §4.4), beside the person fields: the facade's /people
 * routes and saved people searches read conditions and sort with these tables
 * (src/kit/v3/conditions.ts). Each `to` names a PersonFilter field.
 */

/** v3 §4.4 list conditions: text ones are case-insensitive substring matches (DECISIONS: Conditions). */
export const PERSON_CONDITIONS: ConditionVocabulary = {
  filter: 'PersonFilter',
  root: 'person',
  text: 'like',
  source: sourcePath(__filename),
  // v3 §4.4 `person_email` matches any of a person's addresses (anyEmail).
  none: { email: 'the first address alone is GraphQL only: person_email reads every address' },
  fixed: {
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
    // DECISIONS: `conditions[custom_label_N][from]/[to]`, `conditions[custom_label_N][]=entry_id`.
    [CUSTOM_LABELS]: { to: 'customFields', kind: 'customLabel' },
  },
};

/**
 * DECISIONS: association filters as plain query params: `/people.json?company_id=3`, and `user_id`
 * for the owner (the older official Ruby client's `user.people` sends it).
 */
export const PERSON_QUERY_FILTERS: ConditionTable = { company_id: { to: 'companyId', kind: 'ids' }, user_id: { to: 'ownerId', kind: 'ids' } };

/** Sorting (`people.last_name`, `-people.created_at`): PersonOrderField values, and `user_id` for the owner as in v3. */
export const PERSON_SORT: V3SortSpec = { aliases: { user_id: 'OWNER_ID' } };
