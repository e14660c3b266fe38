import type { Where } from '../db/sql';
import { Visibility } from './viewer';

/** Whoever the rule is asked about: the viewer, or any user of the account (for notify lists). */
export interface Seer {
  readonly userId: number;
  readonly isAdmin: boolean;
  readonly visibility: Visibility;
}

/**
 * One way a restricted (`own`) user may see a record, stated once for both places it is checked:
 * as SQL on a row aliased `alias`, and as a predicate on a record in memory. The owner is one
 * such term; deals will add "shared with the user" as another, without touching any caller.
 */
export interface VisibilityTerm<R> {
  sql(alias: string, userId: number): { readonly sql: string; readonly params: readonly unknown[] };
  holds(userId: number, record: R): boolean;
}

/** Admins (whatever their own visibility setting) and `all` users see every record of the account. */
export function seesEverything(seer: Seer): boolean {
  return seer.isAdmin || seer.visibility === Visibility.ALL;
}

/** The record's owner sees it: `<alias>.<column> = user`. */
export function ownerTerm<R>(column: string, ownerOf: (record: R) => number | null | undefined): VisibilityTerm<R> {
  return {
    sql: (alias, userId) => ({ sql: `${alias}.${column} = ?`, params: [userId] }),
    holds: (userId, record) => ownerOf(record) === userId,
  };
}

/**
 * THE visibility rule of a resource: a user sees a record when they see everything, or when any of
 * the resource's terms holds. Yields the SQL condition, the in-memory predicate and the list of
 * users who can see a record from that one definition. Tenancy (the account) is not part of it:
 * callers scope by account first.
 */
export class VisibilityRule<R> {
  constructor(private readonly terms: readonly VisibilityTerm<R>[]) {}

  /** Adds to `where` what the viewer may see of the rows aliased `alias`; nothing for those who see everything. */
  restrict(where: Where, alias: string, seer: Seer): Where {
    if (seesEverything(seer)) return where;
    const sql: string[] = [];
    const params: unknown[] = [];
    for (const term of this.terms) {
      const part = term.sql(alias, seer.userId);
      sql.push(part.sql);
      params.push(...part.params);
    }
    // No term (a resource only admins and `all` users see): nothing is visible.
    return where.add(sql.length === 0 ? 'false' : sql.join(' or '), ...params);
  }

  canSee(seer: Seer, record: R): boolean {
    return seesEverything(seer) || this.terms.some((t) => t.holds(seer.userId, record));
  }

  /** Users who can see the record (v3 possible_notify_user_ids), in the order given. */
  usersWhoCanSee(users: Iterable<{ readonly id: number; readonly isAdmin: boolean; readonly visibility: Visibility }>, record: R): number[] {
    const ids: number[] = [];
    for (const u of users) if (this.canSee({ userId: u.id, isAdmin: u.isAdmin, visibility: u.visibility }, record)) ids.push(u.id);
    return ids;
  }
}

/** Records with an owner: what people and companies use (owner column `owner_id`, relation `owner`). */
export function ownedRecords<R extends { owner?: { id: number } | null }>(...extra: VisibilityTerm<R>[]): VisibilityRule<R> {
  return new VisibilityRule<R>([ownerTerm<R>('owner_id', (r) => r.owner?.id), ...extra]);
}
