import type { EntityClass } from '@mikro-orm/core';
import { SettledLoader } from '../../context/loaders';
import { NotFoundError, type Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { checkPrecondition, lockVersion, preconditionOn } from '../../context/preconditions';
import { mutation } from '../../context/transaction';
import type { Seer, VisibilityRule } from '../../context/visibility';
import { keysetPage, type ConnectionReads, type OrderKey } from '../../db/keyset';
import { findOneRow, tableOf } from '../../db/list-query';
import { Where } from '../../db/sql';
import { Connection, type Paging } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';

/** What the service kit needs to know of a record resource: a few facts, no behaviour. */
export interface Records<T extends { id: number }> {
  readonly entity: EntityClass<T>;
  /** Alias of its table in hand-written conditions, e.g. `p`. */
  readonly alias: string;
  /** Named in NotFound errors, e.g. `Person`. */
  readonly name: string;
  /** Who sees which records (see context/visibility.ts). */
  readonly visibility: VisibilityRule<T>;
}

/** `"people" p`: the table from the ORM metadata, with the resource's alias. */
export function fromOf<T extends { id: number }>(ctx: Pick<RequestContext, 'em'>, def: Records<T>, alias = def.alias): string {
  return `"${tableOf(ctx.em, def.entity).table}" ${alias}`;
}

/** Tenancy and visibility of the resource's rows for the viewer: the start of every condition. */
export function scopeOf<T extends { id: number }>(ctx: { readonly viewer: Seer & { readonly accountId: number } }, def: Records<T>, alias = def.alias): Where {
  const where = new Where().add(`${alias}.account_id = ?`, ctx.viewer.accountId);
  return def.visibility.restrict(where, alias, ctx.viewer);
}

/** One page of rows matching `where` (which starts from scopeOf), by cursor or offset, as read-only projections. */
export async function listConnection<T extends { id: number }>(
  ctx: RequestContext,
  def: Records<T>,
  where: Where,
  order: readonly OrderKey[],
  paging: Paging,
  reads?: ConnectionReads,
): Promise<Connection<T>> {
  return new Connection(await keysetPage(ctx.em, def.entity, { from: fromOf(ctx, def), alias: def.alias, where, order, paging, reads }));
}

/** For reading: a read-only projection, or null when missing or not visible (answered alike, so existence does not leak). */
export async function findVisible<T extends { id: number }>(
  ctx: Pick<RequestContext, 'em'> & Parameters<typeof scopeOf>[0],
  def: Records<T>,
  id: number,
): Promise<T | null> {
  return isValidId(id) ? findOneRow(ctx.em, def.entity, fromOf(ctx, def), def.alias, id, scopeOf(ctx, def)) : null;
}

/**
 * The users each record is shared with, when the resource's rule shares through a join table
 * (one statement per batch of ids, per request); empty maps otherwise.
 */
export function sharesOf<T extends { id: number }>(ctx: RequestContext, def: Records<T>): SettledLoader<number[]> {
  const shares = def.visibility.shares;
  return ctx.loaders.memo(
    `shares:${def.name}`,
    () =>
      new SettledLoader<number[]>(async (ids) => {
        const found = new Map<number, number[]>(ids.map((id) => [id, []]));
        if (shares) {
          const rows = await ctx.em.execute<Array<{ r: number; u: number }>>(
            `select ${shares.recordColumn} as r, ${shares.userColumn} as u from "${shares.table}" where ${shares.recordColumn} = any(?::int[]) order by ${shares.userColumn}`,
            [`{${ids.join(',')}}`],
            'all',
          );
          for (const row of rows) found.get(Number(row.r))?.push(Number(row.u));
        }
        return ids.map((id) => found.get(id)!);
      }),
  );
}

/** The visibility rule on one record in memory, its shares loaded when the rule needs them. */
export async function canSeeRecord<T extends { id: number }>(ctx: RequestContext, def: Records<T>, record: T): Promise<boolean> {
  const shared = def.visibility.shares ? await sharesOf(ctx, def).load(record.id) : undefined;
  return def.visibility.canSee(ctx.viewer, record, shared);
}

/** Records by id for `node`/`nodes`: the generic loader (tenancy), then the visibility rule. */
export async function findManyVisible<T extends { id: number }>(ctx: RequestContext, def: Records<T>, ids: readonly number[]): Promise<Array<T | null>> {
  const loader = ctx.loaders.byId(def.entity);
  const rows = await Promise.all(ids.map((id) => loader.load(id)));
  return Promise.all(rows.map(async (row) => (row && (await canSeeRecord(ctx, def, row)) ? row : null)));
}

/** For writing: the managed entity, under the same tenancy and visibility rule, and the running write's precondition. */
export function loadForWrite<T extends { id: number }>(ctx: RequestContext, def: Records<T>, id: number): Promise<T> {
  return findForWrite(ctx, def.name, def.entity, id, async (options) => {
    const record = (await ctx.em.findOne(def.entity, { id, account: ctx.viewer.accountId } as never, options)) as T | null;
    return record && (await canSeeRecord(ctx, def, record)) ? record : null;
  });
}

/**
 * A record `type` by id for an update or delete: `find` applies tenancy and visibility (null is
 * NOT_FOUND). When the running mutation targets this record (context/preconditions.ts), its row
 * is locked first and found again from the database (not the unit of work's copy), and the version
 * the caller expects is checked once the record is known to be visible.
 */
export async function findForWrite<T extends { id: number }>(
  ctx: RequestContext,
  type: string,
  entity: EntityClass<T>,
  id: number,
  find: (options: { refresh?: boolean }) => Promise<T | null>,
): Promise<T> {
  if (!isValidId(id)) throw new NotFoundError(type, id);
  const target = preconditionOn(ctx, type, id);
  const locked = target ? await lockVersion(ctx, ctx.em.getMetadata().get(entity.name).tableName, id) : null;
  const record = await find(target ? { refresh: true } : {});
  if (!record || (target && locked === null)) throw new NotFoundError(type, id);
  if (target) checkPrecondition(ctx, target, locked!, type);
  return record;
}

/** Deletes a record the viewer may see (else NotFound); returns its id. */
export function removeVisible<T extends { id: number }>(ctx: RequestContext, def: Records<T>, id: number): Promise<number> {
  return mutation(ctx, async (em) => {
    em.remove(await loadForWrite(ctx, def, id));
    return id;
  });
}

/**
 * A record may be linked (e.g. a person's company) only when the viewer can see it: one they
 * cannot see is answered like a missing one, so its existence does not leak.
 */
export function linkable<T extends { id: number }>(ctx: RequestContext, def: Records<T>, record: T | null): record is T {
  // A rule sharing through a join table needs the shares: use canSeeRecord for such resources.
  return record !== null && def.visibility.canSee(ctx.viewer, record);
}

/**
 * A to-one relation set from an id input: undefined leaves it, null clears it, an id must name a
 * record `find` accepts (it applies tenancy, and visibility where linking needs it), else
 * `<prop>Id` "does not exist". Loader rows are read-only copies: the relation gets a managed reference.
 */
export async function setRelation<T extends object>(
  ctx: RequestContext,
  record: T,
  prop: keyof T & string,
  entity: EntityClass<{ id: number }>,
  id: number | null | undefined,
  find: (id: number) => Promise<{ id: number } | null>,
  issues: Issues,
  field = `${prop}Id`,
): Promise<void> {
  if (id === undefined) return;
  const target = record as Record<string, unknown>;
  if (id === null) {
    target[prop] = null;
    return;
  }
  const found = isValidId(id) ? await find(id) : null;
  if (!found) issues.missing(field);
  else target[prop] = ctx.em.getReference(entity, found.id);
}
