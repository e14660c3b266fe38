import { dateTime, enumOf, read, readOnly, recordId } from './field-table';
import { defineResource } from './resource-spec';

/**
 * v3 §4.11 users and profile (shape "not shown" by the spec): the convenience-object names plus
 * the user's own settings. Never a key: the core's User type has none, and this table names none.
 */
export const userResource = defineResource({
  root: 'user',
  type: 'User',
  fragment: 'UserV3',
  fields: {
    id: recordId(),
    first_name: read('firstName'),
    last_name: read('lastName'),
    full_name: read('fullName'),
    email: read('email'),
    time_zone: read('timeZone'),
    is_admin: read('isAdmin'),
    // GraphQL speaks the enum's names (ALL, OWN); v3 speaks lower case.
    visibility: readOnly(enumOf('visibility', { all: 'ALL', own: 'OWN' })),
    created_at: readOnly(dateTime('createdAt')),
    updated_at: readOnly(dateTime('updatedAt')),
  },
});
