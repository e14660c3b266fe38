import { envelope } from '../response/envelope';
import { withProperties } from '../openapi/json-schema';
import { id, ids, nameRef, read, recordId, shaped, text, type FieldSpec } from './field-table';
import { commentResource } from './comment';
import { v3Resource, type Formatter } from './resource-spec';

/** v3 §2.2 user convenience object: {id, first_name, last_name, avatar_thumb_url} (plus full_name, DECISIONS: Responses). */
export const userWithAvatar = (from: string): FieldSpec =>
  shaped(
    read(from, (user: Record<string, unknown> | null) => (user ? { ...user, avatar_thumb_url: null } : null), '{ ...UserRefV3 }'),
    ({ selected }) => withProperties(selected, { avatar_thumb_url: { type: 'null' } }),
  );

/**
 * v3 §2.2, §4.2: the note's first page of comments as a paginated envelope (DECISIONS: comments 5
 * a page). Selected by the notes lists and ShowNote (the recordings show it on list entries too,
 * issue 22 §2), read for the whole page at once; creates and updates answer without it.
 */
const comments: FieldSpec = {
  ...read('comments', (page: { nodes: Record<string, unknown>[]; totalCount: number } | undefined, fmt: Formatter) =>
    page
      ? envelope(
          page.nodes.map((c) => commentResource.serialize(c, fmt)),
          { page: 1, perPage: 5, total: page.totalCount },
        )
      : undefined,
  ),
  optional: true,
  shape: ({ envelope, record }) => envelope(record(commentResource)),
};

/** v3 §2.2 (issue 12 §1). Keys in the order v3 shows them; `mime` is always null (v3 shows it null). */
export const noteResource = v3Resource({
  root: 'note',
  type: 'Note',
  fragment: 'NoteV3',
  requiredOnCreate: ['content'],
  fields: {
    id: recordId(),
    deal_id: id('dealId'),
    person_id: id('personId'),
    company_id: id('companyId'),
    title: text('title'),
    content: text('content'),
    user_id: id('userId'),
    user: userWithAvatar('user'),
    note_category_id: id('noteCategoryId'),
    note_category: nameRef('noteCategory'),
    created_at: read('createdAt', 'dateTime'),
    updated_at: read('updatedAt', 'dateTime'),
    possible_notify_user_ids: read('possibleNotifyUserIds'),
    notify_user_ids: ids('notifyUserIds'),
    is_sent_message: { from: 'isSentMessage', write: { type: 'boolean' }, show: 'plain' },
    primary_association_id: read('primaryAssociationId'),
    primary_association_type: read('primaryAssociationType'),
    company: nameRef('company'),
    deal: nameRef('deal'),
    person: read('person', 'plain', '{ id: databaseId first_name: firstName last_name: lastName }'),
    // v3 §2.2: list entries carry `mime`, null in every example; read from nothing that costs.
    mime: shaped(
      read('databaseId', () => null),
      { type: 'null' },
    ),
    comments,
  },
  errorFields: {
    dealId: 'deal_id',
    personId: 'person_id',
    companyId: 'company_id',
    userId: 'user_id',
    noteCategoryId: 'note_category_id',
    notifyUserIds: 'notify_user_ids',
  },
});
