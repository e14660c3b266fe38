import { read, recordId } from './field-table';
import { v3Resource } from './resource-spec';

/** DECISIONS (Routes clients use that the spec does not list): GET /account.json, no secret in it. */
export const accountResource = v3Resource({
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
