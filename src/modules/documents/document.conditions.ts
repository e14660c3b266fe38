import type { ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';
import { sourcePath } from '../../kit/source-path';
import type { ConditionVocabulary } from '../../kit/v3/vocabulary';

/*
 * The v3 vocabulary of document lists (v3 §4.7), beside the document fields: the facade's
 * /documents routes read conditions and sort with these tables (src/kit/v3/conditions.ts). Each
 * `to` names a DocumentFilter field; the facade's agreement check holds them to the schema.
 */

/**
 * v3 §4.7 list conditions. `document_type` and `associated_with` take `all` for no condition;
 * `pds` is the spec's spelling of `pdfs` (both accepted). `document_owner` takes ids or `all`
 * (DECISIONS: id conditions; `all` as `deal_owner` takes it). Without it a list holds every
 * document the viewer may see, as every other list does: the spec's default ("logged-in user")
 * is not applied (docs/documents.md: a record's documents, `?deal_id=1`, would lose its
 * colleagues' files, and deals do not default `deal_owner` either).
 */
export const DOCUMENT_CONDITIONS: ConditionVocabulary = {
  filter: 'DocumentFilter',
  root: 'document',
  text: 'like',
  source: sourcePath(__filename),
  fixed: {
    document_name: { to: 'title', kind: 'like' },
    document_type: {
      to: 'kind',
      kind: 'enum',
      any: 'all',
      map: { spreadsheets: 'SPREADSHEET', images: 'IMAGE', documents: 'DOCUMENT', pdfs: 'PDF', pds: 'PDF', presentations: 'PRESENTATION', others: 'OTHER' },
    },
    document_owner: { to: 'ownerId', kind: 'ids', any: 'all' },
    associated_with: {
      to: 'associatedWith',
      kind: 'enum',
      any: 'all',
      map: { companies: 'COMPANIES', deals: 'DEALS', email: 'EMAIL', people: 'PEOPLE', shared: 'SHARED' },
    },
    // DECISIONS: datetime ranges as [from_date] and/or [to_date].
    document_uploaded: { to: 'uploadedAt', kind: 'datetimeRange' },
    document_modified: { to: 'updatedAt', kind: 'datetimeRange' },
    // DECISIONS: association filters also arrive inside conditions (newer clients).
    deal_id: { to: 'dealId', kind: 'ids' },
    person_id: { to: 'personId', kind: 'ids' },
    company_id: { to: 'companyId', kind: 'ids' },
    user_id: { to: 'ownerId', kind: 'ids' },
  },
};

/** DECISIONS: association filters as plain query params (`/documents.json?person_id=2`), `user_id` for the owner. */
export const DOCUMENT_QUERY_FILTERS: ConditionTable = {
  deal_id: { to: 'dealId', kind: 'ids' },
  person_id: { to: 'personId', kind: 'ids' },
  company_id: { to: 'companyId', kind: 'ids' },
  user_id: { to: 'ownerId', kind: 'ids' },
};

/** Sorting (`title`, `-documents.created_at`, `size_in_k`): the DocumentOrderField values (title, created_at, updated_at, size_in_k, id). */
export const DOCUMENT_SORT: V3SortSpec = {};
