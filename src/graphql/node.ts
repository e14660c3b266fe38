import { Arg, Ctx, Extensions, Field, ID, InterfaceType, Query, Resolver } from 'type-graphql';
import type { ListSize } from './cost';
import { BadInputError } from '../common/errors';
import type { RequestContext } from '../context/context';
import { isValidId } from './ids';
import { mayReadType, Scope, SCOPE_OPEN } from './scopes';

/**
 * Relay object identification: every record type implements `Node`, with an opaque global `id`
 * (the type and the database id, base64url-encoded) beside `databaseId` (the id v3 clients know).
 * Clients must treat the global id as opaque; only this module reads it.
 */
@InterfaceType('Node', {
  description: 'A record with a global id: fetch any record again with `node(id:)` or many with `nodes(ids:)`.',
  resolveType: (value: object) => nodeTypeOf(value)?.name,
})
export abstract class Node {
  @Field(() => ID, { description: 'Opaque global id, unique across every type of record. Pass it to `node(id:)`; do not parse it.' })
  id!: string;
}

/** Descriptions of the two id fields every record type has. */
export const NODE_ID_DOC = 'Opaque global id (the same for this record everywhere in the API); see `node(id:)`.';
export const DATABASE_ID_DOC = 'The numeric id: what single lookups (`person(id:)`), mutations, filters and the v3 REST API use.';

/** How `node`/`nodes` find records of one type: by database id, within tenancy and visibility. */
export interface NodeType {
  /** The GraphQL type name, e.g. `Person`. */
  readonly name: string;
  /** The class its rows are instances of (the entity): how a row's type is told. */
  readonly entity: abstract new (...args: never[]) => object;
  /** Records by database id, in the order asked, null where missing or not visible to the viewer. */
  find(ctx: RequestContext, ids: readonly number[]): Promise<ReadonlyArray<object | null>>;
}

const byName = new Map<string, NodeType>();
const byEntity = new Map<object, NodeType>();

/** A module declares its record type once, next to its resolver. */
export function registerNode(type: NodeType): void {
  byName.set(type.name, type);
  byEntity.set(type.entity, type);
}

/** The GraphQL type name of a record (its class is registered), synchronously. */
export function nodeTypeName(value: object): string | undefined {
  return nodeTypeOf(value)?.name;
}

function nodeTypeOf(value: object): NodeType | undefined {
  let proto: object | null = Object.getPrototypeOf(value);
  while (proto) {
    const type = byEntity.get((proto as { constructor: object }).constructor);
    if (type) return type;
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

export function toGlobalId(typeName: string, databaseId: number): string {
  return Buffer.from(`${typeName}:${databaseId}`, 'utf8').toString('base64url');
}

const GLOBAL_ID = /^([A-Z][A-Za-z]{0,63}):([1-9][0-9]{0,9})$/;

/** The type and database id behind a global id, or null when it is not one this service issued. */
export function fromGlobalId(id: string): { typeName: string; databaseId: number } | null {
  if (typeof id !== 'string' || id.length > 100 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const match = GLOBAL_ID.exec(Buffer.from(id, 'base64url').toString('utf8'));
  if (!match || !byName.has(match[1]) || !isValidId(Number(match[2]))) return null;
  return { typeName: match[1], databaseId: Number(match[2]) };
}

/**
 * Records of one registered type by database id, as `node(id:)` finds them: null where missing or
 * hidden from the viewer. Undefined when no type has the name.
 */
export function findNodes(ctx: RequestContext, typeName: string, ids: readonly number[]): Promise<ReadonlyArray<object | null>> | undefined {
  return byName.get(typeName)?.find(ctx, ids);
}

/** The most ids one `nodes` call takes. */
export const MAX_NODES = 100;

/** Resolves global ids in one batch per type; unknown, missing and hidden records are null. */
export async function resolveNodes(ctx: RequestContext, ids: readonly string[]): Promise<Array<object | null>> {
  const parsed = ids.map((id) => {
    const found = fromGlobalId(id);
    if (!found) throw new BadInputError('id', `"${String(id).slice(0, 100)}" is not a global id of this API`);
    return found;
  });
  const wanted = new Map<string, number[]>();
  for (const { typeName, databaseId } of parsed) {
    const list = wanted.get(typeName) ?? [];
    list.push(databaseId);
    wanted.set(typeName, list);
  }
  const found = new Map<string, object | null>();
  await Promise.all(
    [...wanted].map(async ([typeName, databaseIds]) => {
      const records = await byName.get(typeName)!.find(ctx, databaseIds);
      databaseIds.forEach((databaseId, i) => found.set(`${typeName}:${databaseId}`, records[i] ?? null));
    }),
  );
  return parsed.map(({ typeName, databaseId }) => found.get(`${typeName}:${databaseId}`) ?? null);
}

@Resolver()
export class NodeResolver {
  @Query(() => Node, { nullable: true, description: 'Any record by its global id; null when it does not exist or the viewer may not see it.' })
  @Scope(SCOPE_OPEN)
  async node(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "A global id, as read from a record's `id`." }) id: string,
  ): Promise<object | null> {
    return readable(ctx, await resolveNodes(ctx, [id]))[0];
  }

  @Query(() => [Node], {
    nullable: 'items',
    description: `Records by global id, in the order asked (at most ${MAX_NODES}); null in place of one that does not exist or that the viewer may not see.`,
  })
  // As long as its ids: what is selected under it is charged once per id (cost.ts).
  @Extensions({ listSize: { argument: 'ids', max: MAX_NODES } satisfies ListSize })
  @Scope(SCOPE_OPEN)
  async nodes(
    @Ctx() ctx: RequestContext,
    @Arg('ids', () => [ID], { description: `Global ids, at most ${MAX_NODES}.` }) ids: string[],
  ): Promise<Array<object | null>> {
    if (ids.length > MAX_NODES) throw new BadInputError('ids', `at most ${MAX_NODES} ids per call, got ${ids.length}`);
    return readable(ctx, await resolveNodes(ctx, ids));
  }
}

/**
 * A scoped API key's node lookups answer null for records of a type it may not read, as for
 * those it may not see: an empty fragment on another type must not tell it that the record exists.
 */
function readable(ctx: RequestContext, found: Array<object | null>): Array<object | null> {
  const scopes = ctx.viewer.scopes;
  if (scopes === null) return found;
  return found.map((record) => (record && mayReadType(scopes, nodeTypeName(record) ?? '') ? record : null));
}
