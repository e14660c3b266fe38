import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ForbiddenError, ValidationFailed, type Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { VisibilityRule, type VisibilityTerm } from '../../context/visibility';
import { blank } from '../../kit/assign';
import { withoutNul } from './input';

/**
 * DECISIONS (Admin surface): every admin list is read by every user of the account and changed by
 * its admins only. Other users get a FORBIDDEN error (v3: 403 {"error"}), whatever the record:
 * the answer does not depend on whether it exists, so it tells them nothing.
 */
export function requireAdmin(ctx: RequestContext, what = 'admin lists'): void {
  if (!ctx.viewer.isAdmin) throw new ForbiddenError(`Only administrators may change ${what}`);
}

/** Every member of the account sees the record (tenancy is applied before any visibility rule). */
const everyMember: VisibilityTerm<unknown> = {
  sql: () => ({ sql: 'true', params: [] }),
  holds: () => true,
};

/** The visibility rule of account-wide records (admin lists): every user of the account sees them. */
export function accountWide<R>(): VisibilityRule<R> {
  return new VisibilityRule<R>([everyMember as VisibilityTerm<R>]);
}

/**
 * A name of an admin record: NUL dropped (PostgreSQL text cannot hold it, so `\u0000` alone is
 * blank), trimmed, required, at most `max` characters. Null when refused (the issue is recorded).
 */
export function checkName(raw: string | null | undefined, issues: Issues, field = 'name', max = 100): string | null {
  const name = typeof raw === 'string' ? withoutNul(raw).trim() : raw;
  if (blank(name)) {
    issues.blank(field);
    return null;
  }
  // PostgreSQL counts characters (code points), not UTF-16 units.
  if ([...name!].length > max) {
    issues.tooLong(field, max);
    return null;
  }
  return name!;
}

/** An integer field within `min..max` (null and undefined pass: the caller decides what they mean). */
export function checkRange(value: number | null | undefined, field: string, min: number, max: number, issues: Issues): void {
  if (value == null) return;
  if (value < min || value > max)
    issues.add(field, 'OUT_OF_RANGE', max >= 2_147_483_647 ? `must be greater than or equal to ${min}` : `must be between ${min} and ${max}`);
}

/**
 * Whether another row of the account's `table` (besides `exceptId`) has this name, ignoring case.
 * Checked before writing so the client learns which field clashes; the table's unique index on
 * (account_id, lower(name)) still guards races (see `writeUnique`).
 */
export async function nameTaken(ctx: RequestContext, table: string, name: string, exceptId: number | null): Promise<boolean> {
  const rows = await ctx.em.execute<Array<{ id: number }>>(
    `select id from "${table}" where account_id = ? and lower(name) = lower(?) and id <> ? limit 1`,
    [ctx.viewer.accountId, name, exceptId ?? 0],
    'all',
  );
  return rows.length > 0;
}

/** The position after the last of the account's `table` rows (capped at the column's maximum, so max + 1 never overflows). */
export async function nextPosition(ctx: RequestContext, table: string): Promise<number> {
  const [{ next }] = await ctx.em.execute<Array<{ next: number }>>(
    `select least(coalesce(max(position)::bigint + 1, 0), 2147483647)::int as next from "${table}" where account_id = ?`,
    [ctx.viewer.accountId],
    'all',
  );
  return Number(next);
}

/** A mutation where a concurrent write of the same name loses at the unique index: reported like the pre-check, on `field`. */
export async function writeUnique<T>(ctx: RequestContext, work: (em: RequestContext['em']) => Promise<T>, field = 'name'): Promise<T> {
  try {
    return await mutation(ctx, work);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw ValidationFailed.one(field, 'TAKEN', 'has already been taken');
    throw error;
  }
}
