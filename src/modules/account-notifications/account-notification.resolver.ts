import { Arg, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { relationField, type RelationPreload } from '../../graphql/relations';
import { toGlobalId } from '../../graphql/node';
import { payloadOf, UserError } from '../../graphql/payload';
import { recordResource } from '../common/record-resource';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { AccountNotification } from './account-notification.entity';
import { ACCOUNT_NOTIFICATION_FIELDS } from './account-notification.fields';
import { AccountNotificationCreateInput, AccountNotificationUpdateInput } from './account-notification.inputs';
import { ACCOUNT_NOTIFICATIONS, ACCOUNT_NOTIFICATIONS_PAGE_SIZE, AccountNotificationService } from './account-notification.service';
import { withPrecondition } from '../../context/preconditions';
import { EXPECTED_VERSION_DOC } from '../../graphql/versioned';
import { Scope } from '../../graphql/scopes';

/** v3 §4.9: a delete answers the deleted notification, so the payload carries it besides its ids. */
@ObjectType('DeleteAccountNotificationPayload', { simpleResolvers: true, description: 'The result of deleteAccountNotification.' })
class DeleteAccountNotificationPayload {
  @Field(() => ID, {
    nullable: true,
    description: 'Global id of the deleted notification (for removing it from a client cache); null when nothing was deleted.',
  })
  deletedId!: string | null;

  @Field(() => Int, { nullable: true, description: 'databaseId of the deleted notification; null when nothing was deleted.' })
  deletedDatabaseId!: number | null;

  @Field(() => AccountNotification, { nullable: true, description: 'The notification as it was when deleted; null when nothing was deleted.' })
  accountNotification!: AccountNotification | null;

  @Field(() => [UserError], { description: 'Why nothing was deleted (e.g. NOT_FOUND); empty on success.' })
  userErrors!: UserError[];
}

/** What a page's selected fields read: the account's users, once, when `user` is selected. */
const RELATIONS: readonly RelationPreload<AccountNotification>[] = [usersPreload('user')];

const ID_DOC = "The notification's databaseId.";
const WHO =
  "Its user may, and so may the account's administrators; a notification the viewer may not see (another user's, another account's) or a missing one is a NOT_FOUND user error.";

/**
 * Account notifications (v3 §2.9, §4.9): a user's own; administrators see and change the whole
 * account's. The generated list, lookup, create and update, with inputs of their own (create and
 * update accept different fields) and the service's create and update; the delete answers the
 * notification as it was, so it is written out below.
 */
export const ACCOUNT_NOTIFICATION_RESOURCE = recordResource({
  records: ACCOUNT_NOTIFICATIONS,
  fields: ACCOUNT_NOTIFICATION_FIELDS,
  singular: 'accountNotification',
  plural: 'accountNotifications',
  pageSize: ACCOUNT_NOTIFICATIONS_PAGE_SIZE,
  relations: RELATIONS,
  offers: ['list', 'show', 'create', 'update'],
  inputs: { create: AccountNotificationCreateInput, update: AccountNotificationUpdateInput },
  docs: {
    list: `The viewer's notifications; an administrator's: every notification of the account (filter by userId for one user's). Default order: newest first, then databaseId; ${ACCOUNT_NOTIFICATIONS_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which notifications; all the viewer may see when absent.',
    show: "One account notification by databaseId; null when it does not exist or the viewer may not see it (another user's, unless the viewer is an administrator).",
    create:
      'Notifies a user of the account (the viewer unless userId names another). A blank text or an unknown user comes back as userErrors, and nothing is created.',
    update: `Marks a notification read (readAt a time) or unread (readAt null); seen follows unless given. ${WHO}`,
    id: ID_DOC,
    input: 'The new notification.',
    changes: 'When it was read, and whether it was seen.',
    created: 'The created notification',
    changed: 'The notification as changed',
  },
  steps: {
    create: (ctx, input) => new AccountNotificationService(ctx).create(input as AccountNotificationCreateInput),
    update: (ctx, id, input) => new AccountNotificationService(ctx).update(id, input as AccountNotificationUpdateInput),
  },
});

/** The delete, which answers the notification as it was (v3 §4.9). */
@Resolver()
export class AccountNotificationDeleteResolver {
  @Mutation(() => DeleteAccountNotificationPayload, { description: `Deletes a notification and answers it as it was. ${WHO}` })
  @Scope('account_notifications:write')
  async deleteAccountNotification(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: ID_DOC }) id: number,
    @Arg('expectedVersion', () => Int, { nullable: true, description: EXPECTED_VERSION_DOC }) expectedVersion?: number | null,
  ): Promise<DeleteAccountNotificationPayload> {
    const { result, userErrors } = await payloadOf(() =>
      withPrecondition(ctx, { type: 'AccountNotification', id, version: expectedVersion }, () => new AccountNotificationService(ctx).delete(id)),
    );
    return {
      deletedId: result === null ? null : toGlobalId('AccountNotification', id),
      deletedDatabaseId: result === null ? null : id,
      accountNotification: result,
      userErrors,
    };
  }
}

@Resolver(() => AccountNotification)
export class AccountNotificationFieldsResolver {
  @FieldResolver(() => User, { description: 'The user notified.' })
  user(@Root() notification: AccountNotification, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, notification.user.id);
  }
}
