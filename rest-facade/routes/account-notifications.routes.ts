import type { ConditionTable } from '../request/conditions';
import { accountNotificationResource, accountNotificationUpdateResource } from '../resources/account-notification';
import type { RouteDeclaration } from './route-spec';

/**
 * v3 §4.9 `conditions[user_id]` (and, as DECISIONS has for association filters, a plain
 * `?user_id=`): one user's notifications (an id, a comma-separated list or an array). Another
 * user's, for a user who is not an admin, is an empty list.
 */
const USER_CONDITIONS: ConditionTable = { user_id: { to: 'userId', kind: 'ids' } };

/**
 * v3 §4.9, §7: account notifications answer 400 {"error"} for missing or bad parameters and 404
 * {"error"} for a missing record (`error-object`), and a delete answers the deleted notification
 * (DECISIONS: Status codes and bodies). Lists: DECISIONS Paging, 100 a page by default and at most.
 */
const base = { resource: accountNotificationResource, errorShape: 'error-object' } as const;

export const ACCOUNT_NOTIFICATION_ROUTES: readonly RouteDeclaration[] = [
  {
    ...base,
    method: 'GET',
    path: '/account_notifications',
    kind: 'list',
    result: 'accountNotifications',
    paging: { default: 100, max: 100 },
    conditions: USER_CONDITIONS,
    queryFilters: USER_CONDITIONS,
  },
  { ...base, method: 'GET', path: '/account_notifications/:id', kind: 'show', result: 'accountNotification' },
  {
    ...base,
    method: 'POST',
    path: '/account_notifications',
    kind: 'create',
    result: 'createAccountNotification.accountNotification',
  },
  {
    ...base,
    resource: accountNotificationUpdateResource,
    method: 'PUT',
    path: '/account_notifications/:id',
    kind: 'update',
    result: 'updateAccountNotification.accountNotification',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/account_notifications/:id',
    kind: 'delete',
    result: 'deleteAccountNotification.accountNotification',
    deleteBody: 'record',
  },
];
