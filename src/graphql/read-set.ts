import type { EntityClass } from '@mikro-orm/core';
import { getNamedType, isObjectType, type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../context/context';
import { readSetOf, type ReadSet } from '../db/list-query';
import { selectedFields } from './selection';

/**
 * What a selection reads of an entity: the read set a loader or a nested page needs to answer it,
 * so a page of deals reads its people's names, not their 47 columns.
 *
 * Each selected field of the entity's GraphQL type maps to properties:
 *   - `@Extensions({ reads: ['firstName', 'lastName'] })` on the field: those (a getter, or a field
 *     resolver that reads other properties);
 *   - `id`, `nodeId`, `databaseId`: the id;
 *   - a field named like an entity property: that property (a field resolver of that name reads it);
 *   - `__typename`: nothing.
 * Any other field, or a type that is not the entity's, reads the whole row (null): a field that
 * forgets to declare what it reads is slower, never wrong.
 */
export const READS = 'reads';

const ID_FIELDS = new Set(['id', 'nodeId', 'databaseId']);

function propsOf(type: GraphQLObjectType, names: ReadonlySet<string>): string[] | null {
  const props: string[] = [];
  const fields = type.getFields();
  for (const name of names) {
    if (name === '__typename') continue;
    const field = fields[name];
    if (!field) return null;
    const reads = field.extensions?.[READS] as readonly string[] | undefined;
    if (reads) props.push(...reads);
    else if (ID_FIELDS.has(name)) props.push('id');
    else props.push(name);
  }
  return props;
}

/** The read set of a selection, computed (see `selectionReadSet`). */
function compute(
  ctx: RequestContext,
  entity: EntityClass<object>,
  info: GraphQLResolveInfo,
  paths: ReadonlyArray<readonly string[]>,
  extra: readonly string[],
): ReadSet | null {
  const names = new Set<string>();
  let type: GraphQLObjectType | null = null;
  for (const path of paths) {
    let at = getNamedType(info.returnType);
    for (const step of path) {
      const field = isObjectType(at) ? at.getFields()[step] : undefined;
      at = field ? getNamedType(field.type) : at;
    }
    if (!isObjectType(at) || (type && type !== at)) return null;
    type = at;
    for (const name of selectedFields(info, path)) names.add(name);
  }
  const props = type ? propsOf(type, names) : null;
  return props ? readSetOf(ctx.em, entity, [...props, ...extra]) : null;
}

/**
 * A place in the code that reads records of `entity` for a field (a resolver, a nested page):
 * the read set of the records under `paths` of the field's selection (e.g. `['nodes']` and
 * `['edges', 'node']` of a connection; `[[]]` for a to-one relation), with `extra` properties the
 * resolver reads itself (a visibility rule's `reads`; null: the whole row). Made once, at module
 * level; computed once per field of a parsed operation (the operation's field nodes key it).
 */
export function readSetSite(
  entity: EntityClass<object>,
  paths: ReadonlyArray<readonly string[]> = [[]],
  extra: readonly string[] | null = [],
): (ctx: RequestContext, info: GraphQLResolveInfo) => ReadSet | null {
  const cache = new WeakMap<FieldNode, ReadSet | null>();
  return (ctx, info) => {
    if (extra === null) return null;
    const node = info.fieldNodes[0];
    let found = cache.get(node);
    if (found === undefined) cache.set(node, (found = compute(ctx, entity, info, paths, extra)));
    return found;
  };
}

const sites = new Map<string, ReturnType<typeof readSetSite>>();

/** As `readSetSite(entity, paths, extra)(ctx, info)`, for a call made once per page (the site is looked up by its description). */
export function selectionReadSet(
  ctx: RequestContext,
  entity: EntityClass<object>,
  info: GraphQLResolveInfo,
  paths: ReadonlyArray<readonly string[]> = [[]],
  extra: readonly string[] | null = [],
): ReadSet | null {
  const key = `${entity.name}:${paths.map((p) => p.join('.')).join('|')}:${extra === null ? '*' : extra.join(',')}`;
  let site = sites.get(key);
  if (!site) sites.set(key, (site = readSetSite(entity, paths, extra)));
  return site(ctx, info);
}
