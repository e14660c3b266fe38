import type { CoreModule } from '../module';
import { AccountNotification } from './account-notification.entity';
import { ACCOUNT_NOTIFICATION_RESOURCE, AccountNotificationDeleteResolver, AccountNotificationFieldsResolver } from './account-notification.resolver';

/** Account notifications (v3 §2.9, §4.9): a user's own, read and marked by them or the account's admins. */
export const accountNotificationsModule: CoreModule = {
  name: 'account-notifications',
  entities: [AccountNotification],
  resolvers: [ACCOUNT_NOTIFICATION_RESOURCE.resolver, AccountNotificationDeleteResolver, AccountNotificationFieldsResolver],
};
