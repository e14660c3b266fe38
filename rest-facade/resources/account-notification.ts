import { boolean, dateTime, id, read, readOnly, recordId, text, type FieldTable } from './field-table';
import { v3Resource } from './resource-spec';

/**
 * v3 §2.9 account notification, every field in the spec's order: `{id, user_id, account_id, text,
 * read_at, seen, created_at, updated_at, hide_popup}`. v3 §4.9 accepts different fields on create
 * and update, so the record has two tables that differ only in what is writable: create takes
 * `text`, `user_id` and `hide_popup`; update `read_at` and `seen`. Anything else is ignored.
 */
const fields = (writes: 'create' | 'update'): FieldTable => {
  const on = (side: 'create' | 'update', field: ReturnType<typeof text>) => (side === writes ? field : readOnly(field));
  return {
    id: recordId(),
    user_id: on('create', id('userId')),
    account_id: read('accountId'),
    text: on('create', text('text')),
    read_at: on('update', dateTime('readAt')),
    seen: on('update', boolean('seen')),
    created_at: read('createdAt', 'dateTime'),
    updated_at: read('updatedAt', 'dateTime'),
    hide_popup: on('create', boolean('hidePopup')),
  };
};

/** Lists, shows, creates and deletes (create: `text` required, `user_id` and `hide_popup` optional). */
export const accountNotificationResource = v3Resource({
  root: 'account_notification',
  type: 'AccountNotification',
  fragment: 'AccountNotificationV3',
  requiredOnCreate: ['text'],
  fields: fields('create'),
});

/** Updates (`read_at` required, `seen` optional): the same record, written through `read_at` and `seen` only. */
export const accountNotificationUpdateResource = v3Resource({
  root: 'account_notification',
  type: 'AccountNotification',
  fragment: 'AccountNotificationUpdateV3',
  fields: fields('update'),
});
