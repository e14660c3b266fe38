import { Arg, Ctx, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { isValidId } from '../../graphql/ids';
import { normalizePage, PageInput, PageOf, toPage } from '../../graphql/types';
import { User } from './user.entity';
import { accountUsers } from './user.loaders';

@ObjectType('UserPage')
export class UserPage extends PageOf(User) {}

/** Users of the viewer's account: every member may list them (v3 §4.11). Keys are never exposed. */
@Resolver()
export class UserResolver {
  @Query(() => UserPage)
  async users(@Ctx() ctx: RequestContext, @Arg('page', () => PageInput, { nullable: true }) pageInput?: PageInput) {
    const page = normalizePage(pageInput);
    const all = [...(await accountUsers(ctx).all.load()).values()];
    return toPage(all.slice(page.offset, page.offset + page.perPage), all.length, page);
  }

  @Query(() => User)
  async user(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    const user = isValidId(id) ? await accountUsers(ctx).load(id) : null;
    if (!user) throw new NotFoundError('User', id);
    return user;
  }

  @Query(() => User, { description: 'The user the API key belongs to' })
  async viewer(@Ctx() ctx: RequestContext) {
    const user = await accountUsers(ctx).load(ctx.viewer.userId);
    if (!user) throw new NotFoundError('User', ctx.viewer.userId);
    return user;
  }
}

@Resolver(() => User)
export class UserFieldsResolver {
  @FieldResolver(() => String, { description: "IANA zone: the user's own, else the account's" })
  timeZone(@Root() user: User, @Ctx() ctx: RequestContext): string {
    return user.timeZone ?? ctx.viewer.accountTimeZone;
  }
}
