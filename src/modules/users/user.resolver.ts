import { Arg, Args, Ctx, Field, FieldResolver, Info, InputType, Int, ObjectType, Query, registerEnumType, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { keysetPage, orderKeysOf, type OrderColumn } from '../../db/keyset';
import { Where } from '../../db/sql';
import { Connection, ConnectionArgs, ConnectionOf, connectionReads, OrderDirection, pagingOf } from '../../graphql/connection';
import { BooleanFilter, compileFilter, IdFilter, StringFilter, type FilterFields } from '../../graphql/filters';
import { isValidId } from '../../graphql/ids';
import { registerNode } from '../../graphql/node';
import { User } from './user.entity';
import { accountUsers } from './user.loaders';
import { declareRecordType, Scope, SCOPE_OPEN } from '../../graphql/scopes';

@ObjectType('UserConnection', { description: 'A page of users, with cursors.' })
export class UserConnection extends ConnectionOf(User, 'User', 'users') {}

@InputType('UserFilter', { description: 'Which users to list: every condition given must hold; compose with and, or, not.' })
export class UserFilter {
  @Field(() => [UserFilter], { nullable: true, description: 'Every one of these filters holds (and/or/not nest at most 5 levels).' }) and?: UserFilter[] | null;
  @Field(() => [UserFilter], { nullable: true, description: 'At least one of these filters holds; an empty list matches nobody.' }) or?: UserFilter[] | null;
  @Field(() => UserFilter, { nullable: true, description: 'This filter does not hold.' }) not?: UserFilter | null;
  @Field(() => IdFilter, { nullable: true, description: "The user's databaseId." }) databaseId?: IdFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Sign-in email address.' }) email?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'First name.' }) firstName?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Last name.' }) lastName?: StringFilter | null;
  @Field(() => BooleanFilter, { nullable: true, description: 'Administrators.' }) isAdmin?: BooleanFilter | null;
}

export enum UserOrderField {
  ID = 'id',
  EMAIL = 'email',
  FIRST_NAME = 'first_name',
  LAST_NAME = 'last_name',
  CREATED_AT = 'created_at',
}
registerEnumType(UserOrderField, {
  name: 'UserOrderField',
  description: 'A key users can be ordered by. Text keys ignore case.',
  valuesConfig: {
    ID: { description: 'databaseId (the default).' },
    EMAIL: { description: 'Email address.' },
    FIRST_NAME: { description: 'First name.' },
    LAST_NAME: { description: 'Last name.' },
    CREATED_AT: { description: 'When the user was added.' },
  },
});

@InputType('UserOrder', { description: 'One ordering key of a user list; databaseId breaks ties.' })
export class UserOrder {
  @Field(() => UserOrderField, { description: 'What to order by.' }) field!: UserOrderField;
  @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC, description: 'Ascending (default) or descending.' }) direction: OrderDirection =
    OrderDirection.ASC;
}

const FILTER_FIELDS: FilterFields<UserFilter> = {
  databaseId: { kind: 'id', sql: 'u.id' },
  email: { kind: 'string', sql: 'u.email' },
  firstName: { kind: 'string', sql: 'u.first_name' },
  lastName: { kind: 'string', sql: 'u.last_name' },
  isAdmin: { kind: 'boolean', sql: 'u.is_admin' },
};

const ORDER_KEYS: Record<UserOrderField, OrderColumn> = {
  [UserOrderField.ID]: { sql: 'u.id', nullable: false, type: 'int' },
  [UserOrderField.EMAIL]: { sql: 'lower(u.email)', nullable: false, type: 'text' },
  [UserOrderField.FIRST_NAME]: { sql: 'lower(u.first_name)', nullable: true, type: 'text' },
  [UserOrderField.LAST_NAME]: { sql: 'lower(u.last_name)', nullable: true, type: 'text' },
  [UserOrderField.CREATED_AT]: { sql: 'u.created_at', nullable: false, type: 'timestamp' },
};

// Any key may read the account's users (the owners and authors records name).
declareRecordType('User', User, SCOPE_OPEN);
registerNode({ name: 'User', entity: User, find: (ctx, ids) => Promise.all(ids.map((id) => accountUsers(ctx).load(id))) });

/** Users of the viewer's account: every member may list them (v3 §4.11). Keys are never exposed. */
@Resolver()
export class UserResolver {
  @Query(() => UserConnection, { description: "Users of the viewer's account. Default order: databaseId." })
  @Scope(SCOPE_OPEN)
  async users(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => UserFilter, { nullable: true, description: 'Which users; all of them when absent.' }) filter?: UserFilter,
    @Arg('orderBy', () => [UserOrder], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: UserOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    const condition = compileFilter(filter, FILTER_FIELDS);
    const where = new Where().add('u.account_id = ?', ctx.viewer.accountId).add(condition.sql, ...condition.params);
    const order = orderKeysOf(orderBy, ORDER_KEYS, []);
    // keysetPage selects the entity's columns only: the hidden key hash is never read.
    return new Connection(
      await keysetPage(ctx.em, User, { from: '"users" u', alias: 'u', where, order, paging: pagingOf(args, 100), reads: connectionReads(info) }),
    );
  }

  @Query(() => User, { nullable: true, description: "One user of the viewer's account by databaseId; null when there is none." })
  @Scope(SCOPE_OPEN)
  async user(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The user's databaseId." }) id: number) {
    return isValidId(id) ? accountUsers(ctx).load(id) : null;
  }

  @Query(() => User, { description: 'The user the API key belongs to.' })
  @Scope(SCOPE_OPEN)
  async viewer(@Ctx() ctx: RequestContext) {
    const user = await accountUsers(ctx).load(ctx.viewer.userId);
    if (!user) throw new NotFoundError('User', ctx.viewer.userId);
    return user;
  }
}

@Resolver(() => User)
export class UserFieldsResolver {
  @FieldResolver(() => String, { description: "IANA time zone (e.g. America/New_York): the user's own, else the account's." })
  timeZone(@Root() user: User, @Ctx() ctx: RequestContext): string {
    return user.timeZone ?? ctx.viewer.accountTimeZone;
  }
}
