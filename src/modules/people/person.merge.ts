import { mergeResolver, type MergeDeclaration } from '../common/merge';
import type { Person } from './person.entity';
import { PERSON_RECORDS } from './person.visibility';

/** What points at a person, moved to the survivor of a merge (every foreign key to people, and the pending todo templates about one). */
export const PERSON_MERGE: MergeDeclaration<Person> = {
  records: PERSON_RECORDS,
  scope: 'people:write',
  table: 'people',
  singular: 'person',
  plural: 'people',
  mutationPlural: 'People',
  // The survivor keeps its own kind, subscription flags and history.
  keep: ['type', 'unsubscribed', 'bounced', 'converted_at', 'viewed_at', 'created_by_id'],
  tags: 'tag_ids',
  moves: [
    { what: 'notes', sql: `update "notes" set "person_id" = ? where "person_id" = any(?::int[]) and "account_id" = ?` },
    {
      what: 'deals (as a person of the deal, without duplicates)',
      sql: `insert into "deal_people" ("deal_id", "person_id")
              select distinct dp."deal_id", ?::int from "deal_people" dp join "deals" d on d."id" = dp."deal_id"
               where dp."person_id" = any(?::int[]) and d."account_id" = ?
              on conflict do nothing`,
    },
    { what: 'deals (as primary contact)', sql: `update "deals" set "primary_contact_id" = ? where "primary_contact_id" = any(?::int[]) and "account_id" = ?` },
    { what: 'calendar entries', sql: `update "calendar_entries" set "person_id" = ? where "person_id" = any(?::int[]) and "account_id" = ?` },
    { what: 'documents', sql: `update "documents" set "person_id" = ? where "person_id" = any(?::int[]) and "account_id" = ?` },
    {
      what: 'pending todo templates',
      sql: `update "todo_template_applications" set "record_id" = ? where "record_type" = 'Person' and "record_id" = any(?::int[]) and "account_id" = ?`,
    },
  ],
};

export const PersonMergeResolver = mergeResolver(PERSON_MERGE);
