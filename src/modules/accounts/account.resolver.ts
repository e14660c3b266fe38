import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { ForbiddenError, NotFoundError } from '../../common/errors';
import { registerNode } from '../../graphql/node';
import { recordPayload, RecordPayload } from '../../graphql/payload';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { Account } from './account.entity';
import { currencyOf } from './currency';
import { declareRecordType, Scope, SCOPE_ADMIN, SCOPE_OPEN } from '../../graphql/scopes';

@ObjectType('Currency', { simpleResolvers: true, description: 'The currency money amounts of the account are in.' })
export class Currency {
  @Field({ description: 'ISO 4217 code, e.g. USD.' }) code!: string;
  @Field({ description: 'English name, e.g. US Dollar.' }) name!: string;
  @Field({ description: 'Symbol, e.g. $.' }) symbol!: string;
  @Field(() => Int, { description: 'Decimal places money is shown with.' }) decimals!: number;
}

// Any key may read its account (name, zone, currency).
declareRecordType('Account', Account, SCOPE_OPEN);
registerNode({
  name: 'Account',
  entity: Account,
  // Only the viewer's own account is ever visible.
  find: async (ctx, ids) => {
    const own = ids.includes(ctx.viewer.accountId) ? await ctx.em.findOne(Account, { id: ctx.viewer.accountId }) : null;
    return ids.map((id) => (id === ctx.viewer.accountId ? own : null));
  },
});

@InputType('AccountSettingsInput', { description: "The account's settings to change; those left out keep their value." })
export class AccountSettingsInput {
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether updates and deletes of versioned records must give `expectedVersion` (v3: If-Match); see Account.requirePreconditions.',
  })
  requirePreconditions?: boolean | null;
}

@ObjectType('UpdateAccountSettingsPayload', { description: 'The result of updateAccountSettings.' })
export class UpdateAccountSettingsPayload extends RecordPayload(Account, 'account', 'The account as changed') {}

@Resolver(() => Account)
export class AccountResolver {
  @Query(() => Account, { description: "The viewer's account." })
  @Scope(SCOPE_OPEN)
  async account(@Ctx() ctx: RequestContext) {
    const account = await ctx.em.findOne(Account, { id: ctx.viewer.accountId });
    if (!account) throw new NotFoundError('Account');
    return account;
  }

  @Mutation(() => UpdateAccountSettingsPayload, { description: "Changes the account's settings. Administrators only (others get a FORBIDDEN error)." })
  @Scope(SCOPE_ADMIN)
  updateAccountSettings(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => AccountSettingsInput, { description: 'The settings to change.' }) input: AccountSettingsInput,
  ) {
    if (!ctx.viewer.isAdmin) throw new ForbiddenError("Only administrators may change the account's settings");
    return recordPayload('account', () =>
      mutation(ctx, async (em) => {
        const account = await em.findOneOrFail(Account, { id: ctx.viewer.accountId });
        if (input.requirePreconditions != null) account.requirePreconditions = input.requirePreconditions;
        return account;
      }),
    );
  }

  @FieldResolver(() => Currency, { description: "The account's currency." })
  currency(@Root() account: Account): Currency {
    return currencyOf(account.currencyCode);
  }
}
