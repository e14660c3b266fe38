import { Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { NotFoundError } from '../../common/errors';
import { registerNode } from '../../graphql/node';
import type { RequestContext } from '../../context/context';
import { Account } from './account.entity';
import { currencyOf } from './currency';

@ObjectType('Currency', { simpleResolvers: true, description: 'The currency money amounts of the account are in.' })
export class Currency {
  @Field({ description: 'ISO 4217 code, e.g. USD.' }) code!: string;
  @Field({ description: 'English name, e.g. US Dollar.' }) name!: string;
  @Field({ description: 'Symbol, e.g. $.' }) symbol!: string;
  @Field(() => Int, { description: 'Decimal places money is shown with.' }) decimals!: number;
}

registerNode({
  name: 'Account',
  entity: Account,
  // Only the viewer's own account is ever visible.
  find: async (ctx, ids) => {
    const own = ids.includes(ctx.viewer.accountId) ? await ctx.em.findOne(Account, { id: ctx.viewer.accountId }) : null;
    return ids.map((id) => (id === ctx.viewer.accountId ? own : null));
  },
});

@Resolver(() => Account)
export class AccountResolver {
  @Query(() => Account, { description: "The viewer's account." })
  async account(@Ctx() ctx: RequestContext) {
    const account = await ctx.em.findOne(Account, { id: ctx.viewer.accountId });
    if (!account) throw new NotFoundError('Account');
    return account;
  }

  @FieldResolver(() => Currency, { description: "The account's currency." })
  currency(@Root() account: Account): Currency {
    return currencyOf(account.currencyCode);
  }
}
