import type { EntityClass } from '@mikro-orm/core';
import type { GraphQLResolveInfo } from 'graphql';
import { readSetOf, type ReadSet } from '../db/list-query';
import type { RequestContext } from '../context/context';
import { sooner, type ByIdLoader } from '../context/loaders';
import { readSetSite, selectionReadSet } from './read-set';
import { selectedFields } from './selection';

type Id = number | null | undefined;

/**
 * Where records of a relation come from: an entity class (the generic by-id loader) or a module's
 * own loader (e.g. users, all loaded at once because owners repeat on every row).
 */
export type RelationSource<T> = EntityClass<T> | { readonly loader: (ctx: RequestContext) => ByIdLoader<T> };

/** The loader of a source; for an entity, of the records holding `readSet` only when one is given. */
export function loaderOf<T extends { id: number }>(ctx: RequestContext, source: RelationSource<T>, readSet: ReadSet | null = null): ByIdLoader<T> {
  return typeof source === 'function' ? ctx.loaders.byId(source, readSet) : source.loader(ctx);
}

/**
 * A to-one relation field: the related record (or `map` of it), synchronously once preloaded.
 * `readSet` (from `reads` below) must be the one its page preloaded with, or it loads again.
 */
export function relationField<T extends { id: number }, R = T | null>(
  ctx: RequestContext,
  source: RelationSource<T>,
  id: Id,
  map?: (record: T | null) => R,
  readSet: ReadSet | null = null,
): R | Promise<R> {
  const loader = loaderOf(ctx, source, readSet);
  return sooner(loader.settled(id), () => loader.load(id), map);
}

/**
 * What a relation field reads of the related records: fixed properties (`['name']` for a
 * `companyName`), or `{ selected }`: what the operation selects of the field, plus `with`
 * (the properties the resolver reads itself, e.g. a visibility rule's; null for the whole row).
 */
export type RelationReads = readonly string[] | { readonly selected: true; readonly with?: readonly string[] | null };

/** Per `{ selected }` declaration and entity: where the read sets of relation fields are kept. */
const fieldSites = new WeakMap<object, Map<EntityClass<object>, ReturnType<typeof readSetSite>>>();

/** The read set of a relation field, from its own resolver (`info` of that field). */
export function relationReadSet(ctx: RequestContext, source: RelationSource<{ id: number }>, reads: RelationReads, info?: GraphQLResolveInfo): ReadSet | null {
  if (typeof source !== 'function') return null;
  if (Array.isArray(reads)) return readSetOf(ctx.em, source, reads as readonly string[]);
  if (!info) return null;
  const selected = reads as { readonly with?: readonly string[] | null };
  let bySource = fieldSites.get(selected);
  if (!bySource) fieldSites.set(selected, (bySource = new Map()));
  let site = bySource.get(source);
  if (!site) bySource.set(source, (site = readSetSite(source, [[]], selected.with ?? [])));
  return site(ctx, info);
}

/** A to-many relation field by ids (e.g. tags): found records in the order of `ids`. */
export function relationListField<T extends { id: number }, R = T[]>(
  ctx: RequestContext,
  source: RelationSource<T>,
  ids: readonly Id[],
  map?: (records: T[]) => R,
): R | Promise<R> {
  const loader = loaderOf(ctx, source);
  return sooner(loader.settledMany(ids), () => loader.loadMany(ids), map);
}

/**
 * What a page's rows will read, declared once per type: when any of `fields` is selected, load
 * the related records of every row (`ids`) in one batch per source, or run `load` (a value the
 * whole page shares, such as the custom-field definitions).
 */
export type RelationPreload<Row> =
  | {
      readonly fields: readonly string[];
      readonly source: RelationSource<{ id: number }>;
      readonly ids: (row: Row) => Id | readonly Id[];
      readonly reads?: RelationReads;
    }
  | { readonly fields: readonly string[]; readonly load: (ctx: RequestContext) => Promise<unknown> }
  /**
   * A value per row (e.g. the users a deal is shared with) from a batch loader keyed by the row's
   * id, or by `key` when given (a note's deal's shares: keyed by the note's deal id).
   */
  | {
      readonly fields: readonly string[];
      readonly perRow: (ctx: RequestContext) => { loadMany(ids: readonly number[]): Promise<unknown> };
      readonly key?: (row: Row) => Id;
    };

/**
 * Loads, in one batch per source (and read set), the relations the selected fields of a page's
 * rows read. A relation with `reads` names one field, and its read set is computed here as the
 * field's resolver computes it (`relationReadSet`), from the page's selection under `nodes` and
 * `edges.node`.
 */
export async function preloadRelations<Row>(
  ctx: RequestContext,
  relations: readonly RelationPreload<Row>[],
  rows: readonly Row[],
  selected: ReadonlySet<string>,
  info?: GraphQLResolveInfo,
): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (const relation of relations) {
    if (!relation.fields.some((f) => selected.has(f))) continue;
    if ('load' in relation) {
      pending.push(relation.load(ctx));
      continue;
    }
    if ('perRow' in relation) {
      const key = relation.key;
      const keys = key ? [...new Set(rows.map((row) => key(row)).filter((id): id is number => id != null))] : rows.map((row) => (row as { id: number }).id);
      if (keys.length > 0) pending.push(relation.perRow(ctx).loadMany(keys));
      continue;
    }
    const ids = new Set<number>();
    for (const row of rows) {
      const value = relation.ids(row);
      if (Array.isArray(value)) {
        for (const id of value as readonly Id[]) if (id != null) ids.add(id);
      } else if (value != null) ids.add(value as number);
    }
    // All batches are started in the same tick: sources shared by several relations load once.
    if (ids.size > 0) pending.push(loaderOf(ctx, relation.source, readSetOfPage(ctx, relation, info)).loadMany([...ids]));
  }
  await Promise.all(pending);
}

function readSetOfPage(
  ctx: RequestContext,
  relation: { readonly fields: readonly string[]; readonly source: RelationSource<{ id: number }>; readonly reads?: RelationReads },
  info: GraphQLResolveInfo | undefined,
): ReadSet | null {
  const { reads, source } = relation;
  if (!reads || typeof source !== 'function') return null;
  if (Array.isArray(reads)) return readSetOf(ctx.em, source, reads as readonly string[]);
  if (!info || relation.fields.length !== 1) return null;
  const [field] = relation.fields;
  return selectionReadSet(
    ctx,
    source,
    info,
    [
      ['nodes', field],
      ['edges', 'node', field],
    ],
    (reads as { with?: readonly string[] | null }).with ?? [],
  );
}

/** For a connection: preloads what the operation selected of its rows (under `nodes` and `edges.node`). */
export async function preloadPage<Row>(
  ctx: RequestContext,
  relations: readonly RelationPreload<Row>[],
  rows: readonly Row[],
  info: GraphQLResolveInfo | undefined,
): Promise<void> {
  if (!info || rows.length === 0) return;
  const selected = selectedFields(info, ['nodes']);
  for (const name of selectedFields(info, ['edges', 'node'])) selected.add(name);
  await preloadRelations(ctx, relations, rows, selected, info);
}
