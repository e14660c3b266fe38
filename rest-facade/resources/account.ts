import { read, recordId } from './field-table';
import { defineResource } from './resource-spec';

/** DECISIONS (Routes clients use that the spec does not list): GET /account.json, no secret in it. */
export const accountResource = defineResource({
  root: 'account',
  type: 'Account',
  fragment: 'AccountV3',
  fields: {
    id: recordId(),
    name: read('name'),
    currency: read('currency', 'plain', '{ code name symbol }'),
    time_zone: read('timeZone'),
  },
});
