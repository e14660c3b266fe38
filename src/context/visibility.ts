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
 * such term. A term whose truth lives in a join table ("shared with the user") states the table
 * instead of a predicate (`shares`): in SQL it is an `exists`; in memory it is answered from the
 * record's shares, which callers load in one batch per page (common/resource.ts `sharesOf`).
 */
export interface VisibilityTerm<R> {
  sql(alias: string, userId: number): { readonly sql: string; readonly params: readonly unknown[] };
  /** In memory, from the record alone; absent for a join-table term. */
  holds?(userId: number, record: R): boolean;
  /** The join table that shares a record with users; present exactly when `holds` is absent. */
  readonly shares?: ShareTable;
  /** The entity properties `holds` reads (so a record read with only some columns can still be judged). */
  readonly reads?: readonly string[];
}

/** A join table `(recordColumn, userColumn)` sharing records with users (e.g. deal collaborators). */
export interface ShareTable {
  readonly table: string;
  readonly recordColumn: string;
  readonly userColumn: string;
}

/** Records shared with users through `shares`: `alias.id` appears with the user in the join table. */
export function sharedTerm<R>(shares: ShareTable): VisibilityTerm<R> {
  return {
    sql: (alias, userId) => ({
      sql: `exists (select 1 from "${shares.table}" s where s.${shares.recordColumn} = ${alias}.id and s.${shares.userColumn} = ?)`,
      params: [userId],
    }),
    shares,
  };
}

/** Admins (whatever their own visibility setting) and `all` users see every record of the account. */
export function seesEverything(seer: Seer): boolean {
  return seer.isAdmin || seer.visibility === Visibility.ALL;
}

/** The record's owner sees it: `<alias>.<column> = user`. */
export function ownerTerm<R>(column: string, ownerOf: (record: R) => number | null | undefined, reads?: readonly string[]): VisibilityTerm<R> {
  return {
    sql: (alias, userId) => ({ sql: `${alias}.${column} = ?`, params: [userId] }),
    holds: (userId, record) => ownerOf(record) === userId,
    ...(reads ? { reads } : {}),
  };
}

/**
 * THE visibility rule of a resource: a user sees a record when they see everything, or when any of
 * the resource's terms holds. Yields the SQL condition, the in-memory predicate and the list of
 * users who can see a record from that one definition. Tenancy (the account) is not part of it:
 * callers scope by account first.
 */
export class VisibilityRule<R> {
  /** The join table of the rule's sharing term, if it has one: records' shares must then be given. */
  readonly shares: ShareTable | null;
  /** The properties `canSee` reads of a record; null when a term does not say (then it needs the whole record). */
  readonly reads: readonly string[] | null;

  constructor(private readonly terms: readonly VisibilityTerm<R>[]) {
    const joins = terms.filter((t) => !t.holds);
    if (joins.some((t) => !t.shares) || joins.length > 1)
      throw new Error('A visibility term has a predicate or one join table (at most one join-table term per rule)');
    this.shares = joins[0]?.shares ?? null;
    this.reads = terms.every((t) => !t.holds || t.reads) ? terms.flatMap((t) => t.reads ?? []) : null;
  }

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

  /**
   * In memory. `sharedWith`: the users the record is shared with, required by a rule with a
   * join-table term (a missing answer would deny silently, so it throws instead).
   */
  canSee(seer: Seer, record: R, sharedWith?: readonly number[]): boolean {
    if (seesEverything(seer)) return true;
    for (const t of this.terms) {
      if (t.holds) {
        if (t.holds(seer.userId, record)) return true;
      } else {
        if (!sharedWith) throw new Error(`canSee needs the record's shares (${t.shares?.table})`);
        if (sharedWith.includes(seer.userId)) return true;
      }
    }
    return false;
  }

  /** Users who can see the record (v3 possible_notify_user_ids), in the order given. */
  usersWhoCanSee(
    users: Iterable<{ readonly id: number; readonly isAdmin: boolean; readonly visibility: Visibility }>,
    record: R,
    sharedWith?: readonly number[],
  ): number[] {
    const ids: number[] = [];
    for (const u of users) if (this.canSee({ userId: u.id, isAdmin: u.isAdmin, visibility: u.visibility }, record, sharedWith)) ids.push(u.id);
    return ids;
  }
}

/** Records with an owner: what people and companies use (owner column `owner_id`, relation `owner`). */
export function ownedRecords<R extends { owner?: { id: number } | null }>(...extra: VisibilityTerm<R>[]): VisibilityRule<R> {
  return new VisibilityRule<R>([ownerTerm<R>('owner_id', (r) => r.owner?.id, ['owner']), ...extra]);
}

/** Records every user of the account sees (tenancy alone decides): admin lists, account settings. */
export function accountWide<R>(): VisibilityRule<R> {
  return new VisibilityRule<R>([{ sql: () => ({ sql: 'true', params: [] }), holds: () => true, reads: [] }]);
}

/** Records only admins (and `all` users) see: no term holds for an `own` user. */
export function adminsOnly<R>(): VisibilityRule<R> {
  return new VisibilityRule<R>([]);
}
