import { PreconditionRequiredError, StaleError } from '../common/errors';
import type { RequestContext } from './context';

/**
 * Conditional writes (issue 26 §2): an update or delete mutation names its record and, when the
 * caller gave one, the version it expects (`expectedVersion`; v3 If-Match). The write step finds
 * the record with `loadForWrite` (src/modules/common/resource.ts), which calls `checkPrecondition`
 * inside the write's transaction, so every resource gets the check in one place: the row is locked
 * (`for update`) before it is read, and its version compared once the visibility rule let it
 * through (a hidden record stays a NOT_FOUND, never a STALE). A second writer racing with the same
 * version waits on the lock, then finds the version moved.
 */
export interface WriteTarget {
  /** The GraphQL type of the record (`Deal`). */
  readonly type: string;
  readonly id: number;
  /** The version the caller expects; null or undefined: none given. */
  readonly version: number | null | undefined;
}

const targets = new WeakMap<RequestContext, WriteTarget>();

/** Runs an update or delete of `target` with its precondition in force for the record it names. */
export async function withPrecondition<T>(ctx: RequestContext, target: WriteTarget, work: () => Promise<T>): Promise<T> {
  targets.set(ctx, target);
  try {
    return await work();
  } finally {
    targets.delete(ctx);
  }
}

/** The target of the running update or delete, when it is the record `type` `id`. */
export function preconditionOn(ctx: RequestContext, type: string, id: number): WriteTarget | null {
  const target = targets.get(ctx);
  return target && target.type === type && target.id === id ? target : null;
}

/** Locks the row; its version, or null when there is no such row (the caller answers NOT_FOUND). */
export async function lockVersion(ctx: RequestContext, table: string, id: number): Promise<number | null> {
  const rows = await ctx.em.execute<Array<{ lock_version: number }>>(`select lock_version from "${table}" where id = ? for update`, [id], 'all');
  return rows.length === 0 ? null : Number(rows[0].lock_version);
}

/** The precondition on a visible record whose row `lockVersion` locked: STALE, PRECONDITION_REQUIRED, or nothing. */
export function checkPrecondition(ctx: RequestContext, target: WriteTarget, locked: number, resource: string): void {
  if (target.version === null || target.version === undefined) {
    if (ctx.viewer.requirePreconditions) throw new PreconditionRequiredError(resource);
    return;
  }
  if (locked !== target.version) throw new StaleError(resource, target.version, locked);
}
