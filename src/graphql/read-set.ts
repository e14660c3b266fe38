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

const cache = new WeakMap<FieldNode, Map<string, ReadSet | null>>();

/**
 * The read set of the records under the current field, at `paths` of its selection (e.g.
 * `['nodes']` and `['edges', 'node']` of a connection; none for a to-one relation), with `extra`
 * properties its resolver reads itself (a visibility rule's `reads`; null: the whole row).
 * Computed once per field of a parsed operation.
 */
export function selectionReadSet(
  ctx: RequestContext,
  entity: EntityClass<object>,
  info: GraphQLResolveInfo,
  paths: ReadonlyArray<readonly string[]> = [[]],
  extra: readonly string[] | null = [],
): ReadSet | null {
  if (extra === null) return null;
  const first = info.fieldNodes[0];
  const key = `${entity.name}:${paths.map((p) => p.join('.')).join('|')}:${extra.join(',')}:${info.fieldNodes.length}`;
  let byKey = cache.get(first);
  if (byKey?.has(key)) return byKey.get(key)!;
  const names = new Set<string>();
  let type: GraphQLObjectType | null = null;
  for (const path of paths) {
    let at = getNamedType(info.returnType);
    for (const step of path) {
      const field = isObjectType(at) ? at.getFields()[step] : undefined;
      at = field ? getNamedType(field.type) : at;
    }
    if (!isObjectType(at) || (type && type !== at)) {
      type = null;
      break;
    }
    type = at;
    for (const name of selectedFields(info, path)) names.add(name);
  }
  const props = type ? propsOf(type, names) : null;
  const result = props ? readSetOf(ctx.em, entity, [...props, ...extra]) : null;
  if (!byKey) cache.set(first, (byKey = new Map()));
  byKey.set(key, result);
  return result;
}
