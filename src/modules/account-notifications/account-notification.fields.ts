import { defineResource } from '../../kit/fields';
import { AccountNotification } from './account-notification.entity';

/**
 * Every account notification field, once (v3 §2.9): the filter, the order and their SQL derive
 * from it (src/kit/fields.ts). No field is written through the kit: create and update accept
 * different fields (v3 §4.9: create only `text`, `user_id`, `hide_popup`; update only `read_at`
 * and `seen`), so their inputs are written out in account-notification.inputs.ts.
 */
export const ACCOUNT_NOTIFICATION_FIELDS = defineResource(
  {
    type: 'AccountNotification',
    plural: 'account notifications',
    entity: AccountNotification,
    alias: 'an',
    defaultOrder: ['-createdAt'],
    createDoc: 'Not used: see AccountNotificationCreateInput.',
    updateDoc: 'Not used: see AccountNotificationUpdateInput.',
    filterDoc: 'Which account notifications to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key account notifications can be ordered by (default: newest first).',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The notification's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    userId: {
      kind: 'ref',
      filter: { doc: 'The user notified (their databaseId; v3 `conditions[user_id]`).' },
      sort: { doc: 'The user notified (their databaseId).' },
    },
    text: { kind: 'text', filter: { doc: 'What the notification says.' } },
    readAt: {
      kind: 'datetime',
      filter: { doc: 'When it was read (`isNull: true`: unread).' },
      sort: { doc: 'When it was read (unread ones last when ascending).' },
    },
    seen: { kind: 'boolean', filter: { doc: 'Whether its user has seen it.' } },
    hidePopup: { kind: 'boolean', filter: { doc: 'Whether it was created without a popup.' } },
    createdAt: { kind: 'datetime', filter: { doc: 'When the notification was created.' }, sort: { doc: 'Creation time (the default, newest first).' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the notification was last changed.' }, sort: { doc: 'Last change.' } },
  },
);
