import { Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { Account } from './account.entity';
import { currencyOf } from './currency';

@ObjectType('Currency', { simpleResolvers: true })
export class Currency {
  @Field() code!: string;
  @Field() name!: string;
  @Field() symbol!: string;
  @Field(() => Int, { description: 'Decimal places money is shown with' }) decimals!: number;
}

@Resolver(() => Account)
export class AccountResolver {
  @Query(() => Account, { description: "The viewer's account" })
  async account(@Ctx() ctx: RequestContext) {
    const account = await ctx.em.findOne(Account, { id: ctx.viewer.accountId });
    if (!account) throw new NotFoundError('Account');
    return account;
  }

  @FieldResolver(() => Currency)
  currency(@Root() account: Account): Currency {
    return currencyOf(account.currencyCode);
  }
}
