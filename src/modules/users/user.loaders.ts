import type { RequestContext } from '../../context/context';
import { loadMany, Once, settledMany, sooner, type ByIdLoader } from '../../context/loaders';
import type { RelationPreload, RelationSource } from '../../graphql/relations';
import type { VisibilityRule } from '../../context/visibility';
import { hydrate, tableOf } from '../../db/list-query';
import { User } from './user.entity';

type Id = number | null | undefined;

/**
 * All users of the account, in one statement: accounts have few users, owners repeat on every row,
 * and notify lists need them all anyway. Columns come from the metadata, so the key hash (hidden,
 * lazy) is never selected.
 */
class AccountUsers implements ByIdLoader<User> {
  readonly all: Once<Map<number, User>>;

  constructor(ctx: RequestContext) {
    this.all = new Once(async () => {
      const { table, columns } = tableOf(ctx.em, User);
      const rows = await ctx.em.execute<Record<string, unknown>[]>(
        `select ${columns.join(', ')} from "${table}" where account_id = ? order by id`,
        [ctx.viewer.accountId],
        'all',
      );
      return new Map(hydrate(ctx.em, User, rows).map((u) => [u.id, u]));
    });
  }

  async load(id: Id): Promise<User | null> {
    return id == null ? null : ((await this.all.load()).get(id) ?? null);
  }

  loadMany(ids: readonly Id[]): Promise<User[]> {
    return loadMany((id) => this.load(id), ids);
  }

  settled(id: Id): User | null | undefined {
    if (id == null) return null;
    const users = this.all.settled();
    return users ? (users.get(id) ?? null) : undefined;
  }

  settledMany(ids: readonly Id[]): User[] | undefined {
    return settledMany((id) => this.settled(id), ids);
  }

  prime(): void {
    // The whole account is loaded at once: nothing to prime one by one.
  }

  clear(): void {
    // Dropped with the context's memo (Loaders.clear).
  }
}

export function accountUsers(ctx: RequestContext): AccountUsers {
  return ctx.loaders.memo('users:account', () => new AccountUsers(ctx));
}

/** Owners and other user relations: `relationField(ctx, Users, person.owner?.id)`. */
export const Users: RelationSource<User> = { loader: accountUsers };

/** Preloads every user of the account for a page when any of `fields` is selected. */
export function usersPreload(...fields: string[]): RelationPreload<unknown> {
  return { fields, load: (ctx) => accountUsers(ctx).all.load() };
}

/**
 * v3 possible_notify_user_ids: the users of the account who can see `record` under `rule`
 * (`sharedWith`: the users a record is shared with, for a rule that shares through a join table).
 */
export function notifyUserIdsField<R>(ctx: RequestContext, rule: VisibilityRule<R>, record: R, sharedWith?: readonly number[]): number[] | Promise<number[]> {
  const users = accountUsers(ctx).all;
  return sooner(
    users.settled(),
    () => users.load(),
    (all) => rule.usersWhoCanSee(all.values(), record, sharedWith),
  );
}
