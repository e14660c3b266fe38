import { dateTime, enumOf, read, readOnly, recordId, shaped } from './field-table';
import { v3Resource } from './resource-spec';

/**
 * v3 §4.11 users and profile (shape "not shown" by the spec): the convenience-object names plus
 * the user's own settings. Never a key: the core's User type has none, and this table names none
 * (the recorded `GET /users/:id.json` shows the user's `api_key`: deliberately left out).
 * Issue 22 §4 adds the recorded keys clients read: `account_id`, `is_account_admin` (the account
 * administrator flag, which `is_admin` already shows), `avatar_thumb_url` (null: users have no
 * avatar here, as the notes' and comments' user objects already answer).
 */
export const userResource = v3Resource({
  root: 'user',
  type: 'User',
  fragment: 'UserV3',
  fields: {
    id: recordId(),
    account_id: read('accountId'),
    first_name: read('firstName'),
    last_name: read('lastName'),
    full_name: read('fullName'),
    email: read('email'),
    // No avatar is stored for users: null, read from nothing that costs.
    avatar_thumb_url: shaped(
      read('databaseId', () => null),
      { type: 'null' },
    ),
    time_zone: read('timeZone'),
    is_admin: read('isAdmin'),
    is_account_admin: read('isAdmin'),
    // GraphQL speaks the enum's names (ALL, OWN); v3 speaks lower case.
    visibility: readOnly(enumOf('visibility', { all: 'ALL', own: 'OWN' })),
    created_at: readOnly(dateTime('createdAt')),
    updated_at: readOnly(dateTime('updatedAt')),
  },
});
