import { toId } from '../request/coerce';
import { withProperties } from '../openapi/json-schema';
import { dateTime, id, read, recordId, shaped, text, type FieldSpec } from './field-table';
import { v3Resource } from './resource-spec';

/** v3 §2.3 user convenience object: {id, first_name, last_name, avatar_thumb_url} (plus full_name). */
const userWithAvatar = (from: string): FieldSpec =>
  shaped(
    read(from, (user: Record<string, unknown> | null) => (user ? { ...user, avatar_thumb_url: null } : null), '{ ...UserRefV3 }'),
    ({ selected }) => withProperties(selected, { avatar_thumb_url: { type: 'null' } }),
  );

/**
 * v3 §2.3. `note_id` comes from the path (`/notes/:note_id/comments`), so it is shown, not written.
 * `edited_by_person_id` is accepted on update (a user id) and shown as `edited_by_user_id`.
 */
export const commentResource = v3Resource({
  root: 'comment',
  type: 'Comment',
  fragment: 'CommentV3',
  requiredOnCreate: ['noteId', 'comment'],
  fields: {
    id: recordId(),
    note_id: read('noteId'),
    user_id: id('userId'),
    user: userWithAvatar('user'),
    comment: text('comment'),
    created_at: read('createdAt', 'dateTime'),
    updated_at: dateTime('updatedAt'),
    edited_by_user_id: read('editedByUserId'),
  },
  alsoReads: { edited_by_person_id: { type: 'id', description: 'The user who last edited it (v3 §2.3; shown as `edited_by_user_id`).' } },
  derive: (input, attributes) => {
    // v3 §2.3: the editor is written as edited_by_person_id (a user's id).
    if (attributes.edited_by_person_id !== undefined) input.editedByUserId = toId(attributes.edited_by_person_id, 'edited_by_person_id');
  },
  errorFields: { editedByUserId: 'edited_by_person_id', noteId: 'note_id', userId: 'user_id' },
});
