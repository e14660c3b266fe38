import { Arg, Args, Ctx, Field, FieldResolver, ID, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode, toGlobalId } from '../../graphql/node';
import { payloadOf, RecordPayload, recordPayload, UserError } from '../../graphql/payload';
import { findManyVisible } from '../common/resource';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { AccountNotification } from './account-notification.entity';
import { ACCOUNT_NOTIFICATION } from './account-notification.fields';
import { AccountNotificationCreateInput, AccountNotificationUpdateInput } from './account-notification.inputs';
import { ACCOUNT_NOTIFICATIONS, ACCOUNT_NOTIFICATIONS_PAGE_SIZE, AccountNotificationService } from './account-notification.service';

@ObjectType('AccountNotificationConnection', { description: 'A page of account notifications, with cursors.' })
export class AccountNotificationConnection extends ConnectionOf(AccountNotification, 'AccountNotification', 'account notifications') {}

@ObjectType('CreateAccountNotificationPayload', { description: 'The result of createAccountNotification.' })
class CreateAccountNotificationPayload extends RecordPayload(AccountNotification, 'accountNotification', 'The created notification') {}

@ObjectType('UpdateAccountNotificationPayload', { description: 'The result of updateAccountNotification.' })
class UpdateAccountNotificationPayload extends RecordPayload(AccountNotification, 'accountNotification', 'The notification as changed') {}

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

registerNode({ name: 'AccountNotification', entity: AccountNotification, find: (ctx, ids) => findManyVisible(ctx, ACCOUNT_NOTIFICATIONS, ids) });

/** What a page's selected fields read: the account's users, once, when `user` is selected. */
const RELATIONS: readonly RelationPreload<AccountNotification>[] = [usersPreload('user')];

const WHO =
  "Its user may, and so may the account's administrators; a notification the viewer may not see (another user's, another account's) or a missing one is a NOT_FOUND user error.";

/** Account notifications (v3 §2.9, §4.9): a user's own; administrators see and change the whole account's. */
@Resolver()
export class AccountNotificationResolver {
  @Query(() => AccountNotificationConnection, {
    description: `The viewer's notifications; an administrator's: every notification of the account (filter by userId for one user's). Default order: newest first, then databaseId; ${ACCOUNT_NOTIFICATIONS_PAGE_SIZE} a page unless asked otherwise.`,
  })
  async accountNotifications(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => ACCOUNT_NOTIFICATION.Filter, { nullable: true, description: 'Which notifications; all the viewer may see when absent.' })
    filter?: InstanceType<typeof ACCOUNT_NOTIFICATION.Filter>,
    @Arg('orderBy', () => [ACCOUNT_NOTIFICATION.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof ACCOUNT_NOTIFICATION.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<AccountNotification>> {
    const result = await new AccountNotificationService(ctx).list(filter, orderBy, pagingOf(args, ACCOUNT_NOTIFICATIONS_PAGE_SIZE), connectionReads(info));
    await preloadPage(ctx, RELATIONS, result.nodes, info);
    return result;
  }

  @Query(() => AccountNotification, {
    nullable: true,
    description:
      "One account notification by databaseId; null when it does not exist or the viewer may not see it (another user's, unless the viewer is an administrator).",
  })
  accountNotification(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The notification's databaseId." }) id: number) {
    return new AccountNotificationService(ctx).find(id);
  }

  @Mutation(() => CreateAccountNotificationPayload, {
    description:
      'Notifies a user of the account (the viewer unless userId names another). A blank text or an unknown user comes back as userErrors, and nothing is created.',
  })
  createAccountNotification(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => AccountNotificationCreateInput, { description: 'The new notification.' }) input: AccountNotificationCreateInput,
  ) {
    return recordPayload('accountNotification', () => new AccountNotificationService(ctx).create(input));
  }

  @Mutation(() => UpdateAccountNotificationPayload, {
    description: `Marks a notification read (readAt a time) or unread (readAt null); seen follows unless given. ${WHO}`,
  })
  updateAccountNotification(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The notification's databaseId." }) id: number,
    @Arg('input', () => AccountNotificationUpdateInput, { description: 'When it was read, and whether it was seen.' }) input: AccountNotificationUpdateInput,
  ) {
    return recordPayload('accountNotification', () => new AccountNotificationService(ctx).update(id, input));
  }

  @Mutation(() => DeleteAccountNotificationPayload, { description: `Deletes a notification and answers it as it was. ${WHO}` })
  async deleteAccountNotification(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The notification's databaseId." }) id: number,
  ): Promise<DeleteAccountNotificationPayload> {
    const { result, userErrors } = await payloadOf(() => new AccountNotificationService(ctx).delete(id));
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
