import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { VisibilityRule, type Seer } from '../../context/visibility';
import type { Where } from '../../db/sql';
import { isValidId } from '../../graphql/ids';
import { storableInstant, withoutNul } from '../common/input';
import { loadForWrite, type Records } from '../common/resource';
import { accountUsers } from '../users/user.loaders';
import { AccountNotification } from './account-notification.entity';
import { MAX_TEXT, type AccountNotificationCreateInput, type AccountNotificationUpdateInput } from './account-notification.inputs';

/** DECISIONS (Paging): every list the spec does not name answers 100 a page by default. */
export const ACCOUNT_NOTIFICATIONS_PAGE_SIZE = 100;

/**
 * Who sees a notification: its user, and the account's admins (issue 12 §4: "a user reads and
 * changes their own notifications; admins read the account's"). Unlike owned records, a user with
 * `all` visibility who is not an admin sees only their own: a notification is addressed to
 * someone, not a record of the account's business. Admins also mark and delete any of the
 * account's (they manage the account), so the same rule guards reads and writes.
 */
class AccountNotificationRule extends VisibilityRule<AccountNotification> {
  constructor() {
    super([]);
  }

  override restrict(where: Where, alias: string, seer: Seer): Where {
    return seer.isAdmin ? where : where.add(`${alias}.user_id = ?`, seer.userId);
  }

  override canSee(seer: Seer, notification: AccountNotification): boolean {
    return seer.isAdmin || notification.user.id === seer.userId;
  }

  override usersWhoCanSee(
    users: Iterable<{ readonly id: number; readonly isAdmin: boolean; readonly visibility: Seer['visibility'] }>,
    notification: AccountNotification,
  ): number[] {
    const ids: number[] = [];
    for (const u of users) if (this.canSee({ userId: u.id, isAdmin: u.isAdmin, visibility: u.visibility }, notification)) ids.push(u.id);
    return ids;
  }
}

export const ACCOUNT_NOTIFICATIONS: Records<AccountNotification> = {
  entity: AccountNotification,
  alias: 'an',
  name: 'AccountNotification',
  visibility: new AccountNotificationRule(),
};

/**
 * Account notifications (v3 §2.9, §4.9, §3): created for a user of the account (the viewer unless
 * said), read and marked by that user or an admin. Reading a notification (`readAt` a time) marks
 * it seen and unreading it (`readAt` null) unseen, unless `seen` is given (DECISIONS: States).
 */
export class AccountNotificationService {
  constructor(private readonly ctx: RequestContext) {}

  /** v3 §4.9: `text` required, `userId` a user of the account (the viewer when absent), `hidePopup` false when absent. */
  create(input: AccountNotificationCreateInput): Promise<AccountNotification> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      // Kept as written (whitespace may matter), NUL dropped (PostgreSQL text cannot hold it).
      const text = typeof input.text === 'string' ? withoutNul(input.text) : '';
      if (text.trim() === '') issues.blank('text');
      else if ([...text].length > MAX_TEXT) issues.tooLong('text', MAX_TEXT);
      const userId = input.userId ?? this.ctx.viewer.userId;
      // A user of another account, or none, does not exist for the viewer.
      const user = isValidId(userId) ? await accountUsers(this.ctx).load(userId) : null;
      if (!user) issues.missing('userId');
      issues.throwIfAny();
      const now = new Date();
      const notification = em.create(AccountNotification, {
        account: this.ctx.viewer.accountId,
        user: user!.id,
        text,
        hidePopup: input.hidePopup === true,
        createdAt: now,
        updatedAt: now,
      });
      await em.flush();
      return notification;
    });
  }

  /**
   * v3 §4.9: `readAt` is required (a time, or null to mark it unread); `seen` follows it (true for a
   * time, false for null) unless given. A notification the viewer may not see is NotFound, checked
   * before the input (as the v3 service answered 404 before 400).
   */
  update(id: number, input: AccountNotificationUpdateInput): Promise<AccountNotification> {
    return mutation(this.ctx, async (em) => {
      const notification = await loadForWrite(this.ctx, ACCOUNT_NOTIFICATIONS, id);
      const issues = new Issues();
      if (input.readAt === undefined) issues.add('readAt', 'BLANK', 'is required (a time marks the notification read, null marks it unread)');
      else if (input.readAt !== null && !storableInstant(input.readAt)) issues.outOfRange('readAt');
      issues.throwIfAny();
      const readAt = input.readAt ?? null;
      notification.readAt = readAt;
      notification.seen = input.seen ?? readAt !== null;
      notification.updatedAt = new Date();
      await em.flush();
      return notification;
    });
  }

  /** Deletes a notification the viewer may see (else NotFound) and answers it as it was. */
  delete(id: number): Promise<AccountNotification> {
    return mutation(this.ctx, async (em) => {
      const notification = await loadForWrite(this.ctx, ACCOUNT_NOTIFICATIONS, id);
      em.remove(notification);
      await em.flush();
      return notification;
    });
  }
}
