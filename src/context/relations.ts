import type { EntityClass } from '@mikro-orm/core';
import type { GraphQLResolveInfo } from 'graphql';
import { selectedFields } from '../graphql/selection';
import type { RequestContext } from './context';
import { sooner, type ByIdLoader } from './loaders';

type Id = number | null | undefined;

/**
 * Where records of a relation come from: an entity class (the generic by-id loader) or a module's
 * own loader (e.g. users, all loaded at once because owners repeat on every row).
 */
export type RelationSource<T> = EntityClass<T> | { readonly loader: (ctx: RequestContext) => ByIdLoader<T> };

export function loaderOf<T extends { id: number }>(ctx: RequestContext, source: RelationSource<T>): ByIdLoader<T> {
  return typeof source === 'function' ? ctx.loaders.byId(source) : source.loader(ctx);
}

/** A to-one relation field: the related record (or `map` of it), synchronously once preloaded. */
export function relationField<T extends { id: number }, R = T | null>(ctx: RequestContext, source: RelationSource<T>, id: Id, map?: (record: T | null) => R): R | Promise<R> {
  const loader = loaderOf(ctx, source);
  return sooner(loader.settled(id), () => loader.load(id), map);
}

/** A to-many relation field by ids (e.g. tags): found records in the order of `ids`. */
export function relationListField<T extends { id: number }, R = T[]>(ctx: RequestContext, source: RelationSource<T>, ids: readonly Id[], map?: (records: T[]) => R): R | Promise<R> {
  const loader = loaderOf(ctx, source);
  return sooner(loader.settledMany(ids), () => loader.loadMany(ids), map);
}

/**
 * What a page's rows will read, declared once per type: when any of `fields` is selected, load
 * the related records of every row (`ids`) in one batch per source, or run `load` (a value the
 * whole page shares, such as the custom-field definitions).
 */
export type RelationPreload<Row> =
  | { readonly fields: readonly string[]; readonly source: RelationSource<{ id: number }>; readonly ids: (row: Row) => Id | readonly Id[] }
  | { readonly fields: readonly string[]; readonly load: (ctx: RequestContext) => Promise<unknown> };

/** Loads, in one batch per source, the relations the selected fields of a page's rows read. */
export async function preloadRelations<Row>(ctx: RequestContext, relations: readonly RelationPreload<Row>[], rows: readonly Row[], selected: ReadonlySet<string>): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (const relation of relations) {
    if (!relation.fields.some((f) => selected.has(f))) continue;
    if ('load' in relation) {
      pending.push(relation.load(ctx));
      continue;
    }
    const ids = new Set<number>();
    for (const row of rows) {
      const value = relation.ids(row);
      if (Array.isArray(value)) for (const id of value as readonly Id[]) id != null && ids.add(id);
      else if (value != null) ids.add(value as number);
    }
    // All batches are started in the same tick: sources shared by several relations load once.
    if (ids.size > 0) pending.push(loaderOf(ctx, relation.source).loadMany([...ids]));
  }
  await Promise.all(pending);
}

/** For a connection: preloads what the operation selected of its rows (under `nodes` and `edges.node`). */
export async function preloadPage<Row>(ctx: RequestContext, relations: readonly RelationPreload<Row>[], rows: readonly Row[], info: GraphQLResolveInfo | undefined): Promise<void> {
  if (!info || rows.length === 0) return;
  const selected = selectedFields(info, ['nodes']);
  for (const name of selectedFields(info, ['edges', 'node'])) selected.add(name);
  await preloadRelations(ctx, relations, rows, selected);
}
