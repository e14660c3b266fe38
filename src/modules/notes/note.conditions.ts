import type { ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';
import { sourcePath } from '../../kit/source-path';
import type { ConditionVocabulary } from '../../kit/v3/vocabulary';

/*
 * The v3 vocabulary of note lists (v3 §4.2), beside the note fields: the facade's /notes routes and
 * saved note searches read conditions and sort with these tables (src/kit/v3/conditions.ts). Each
 * `to` names a NoteFilter field; the facade's agreement check holds them to the schema.
 */

/**
 * v3 §4.2: notes are listed by association (deal_id, person_id, company_id: DECISIONS, also inside
 * conditions) and `activity_modified` (a datetime range on updatedAt). Combined, each must hold
 * (a note of that deal AND that person), as every other list combines its conditions.
 */
export const NOTE_CONDITIONS: ConditionVocabulary = {
  filter: 'NoteFilter',
  root: 'note',
  text: 'like',
  source: sourcePath(__filename),
  fixed: {
    deal_id: { to: 'dealId', kind: 'ids' },
    person_id: { to: 'personId', kind: 'ids' },
    company_id: { to: 'companyId', kind: 'ids' },
    user_id: { to: 'userId', kind: 'ids' },
    activity_modified: { to: 'updatedAt', kind: 'datetimeRange' },
  },
};

/** DECISIONS: association filters as plain query parameters (`/notes.json?deal_id=1`). */
export const NOTE_QUERY_FILTERS: ConditionTable = {
  deal_id: { to: 'dealId', kind: 'ids' },
  person_id: { to: 'personId', kind: 'ids' },
  company_id: { to: 'companyId', kind: 'ids' },
  user_id: { to: 'userId', kind: 'ids' },
};

/** The spec shows no sort for notes: the order enum's keys (created_at, updated_at, user_id, id). */
export const NOTE_SORT: V3SortSpec = {};
