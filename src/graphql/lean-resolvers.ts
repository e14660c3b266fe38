import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/**
 * TypeGraphQL calls every `@FieldResolver` through a generic handler: per call it builds a
 * resolver-data object, asks its container for the resolver instance, runs the (empty) middleware
 * chain, sorts the parameter list in place and maps each parameter through a switch. On a page
 * of 200 deals that is some 4,000 calls, and the profile of the deals list showed it (with the
 * garbage it leaves) among the largest costs of the request.
 *
 * A getter of the type itself (`fullName`, `databaseId`) is read straight from a root of that type.
 * For a field resolver whose parameters are only `@Root()`, `@Ctx()` and `@Info()` (no arguments
 * to convert or validate) and which has no middleware or roles (the schema is built with neither,
 * globally or per field), the field's `resolve` is replaced by a direct call of the method on one
 * instance of its resolver class, the default container's behaviour. A root that is not an
 * instance of the declared type (which TypeGraphQL would convert) goes through the original
 * handler. Returns how many fields were replaced.
 */
type Param = { readonly kind: string; readonly index: number; readonly propertyName?: string; readonly getType?: () => unknown };
interface FieldResolverMeta {
  readonly kind: 'internal' | 'external';
  readonly target: new () => Record<string, (...args: unknown[]) => unknown>;
  readonly methodName: string;
  readonly schemaName: string;
  readonly params?: readonly Param[];
  readonly middlewares?: readonly unknown[];
  readonly roles?: readonly unknown[];
  readonly getObjectType?: () => unknown;
}
interface ObjectTypeMeta {
  readonly name: string;
  readonly target: unknown;
}

const LEAN_KINDS = new Set(['root', 'context', 'info']);

export function leanFieldResolvers(schema: GraphQLSchema): number {
  const storage = getMetadataStorage() as unknown as { fieldResolvers: readonly FieldResolverMeta[]; objectTypes: readonly ObjectTypeMeta[] };
  const instances = new Map<unknown, Record<string, (...args: unknown[]) => unknown>>();
  let replaced = 0;
  for (const meta of storage.fieldResolvers) {
    if (!meta.getObjectType) continue;
    if ((meta.middlewares?.length ?? 0) > 0 || (meta.roles?.length ?? 0) > 0) continue;
    const owner = meta.getObjectType();
    const typeNames = storage.objectTypes.filter((o) => o.target === owner).map((o) => o.name);
    if (typeNames.length !== 1) continue;
    const type = schema.getType(typeNames[0]);
    const field = isObjectType(type) ? type.getFields()[meta.schemaName] : undefined;
    if (!field?.resolve) continue;
    if (meta.kind === 'internal') {
      // A getter (or method without parameters) of the type itself: read from a root of that type.
      if ((meta.params?.length ?? 0) > 0 || typeof owner !== 'function') continue;
      const original = field.resolve;
      const name = meta.methodName;
      const ownerType = owner as abstract new (...args: never[]) => unknown;
      if (typeof Object.getOwnPropertyDescriptor((ownerType as { prototype: object }).prototype, name)?.get !== 'function') continue;
      field.resolve = (root, args, ctx, info) => (root instanceof ownerType ? (root as Record<string, unknown>)[name] : original(root, args, ctx, info));
      replaced++;
      continue;
    }
    const params = [...(meta.params ?? [])].sort((a, b) => a.index - b.index);
    if (!params.every((p) => LEAN_KINDS.has(p.kind))) continue;
    let instance = instances.get(meta.target);
    if (!instance) instances.set(meta.target, (instance = new meta.target()));
    const method = instance[meta.methodName];
    if (typeof method !== 'function') continue;
    const original = field.resolve;
    const rootParam = params.find((p) => p.kind === 'root');
    const rootType = rootParam?.getType?.() as (abstract new (...args: never[]) => unknown) | undefined;
    if (rootParam?.propertyName || params.some((p) => p.kind === 'context' && p.propertyName)) continue;
    const bound = method.bind(instance);
    const order = params.map((p) => p.kind);
    field.resolve = leanResolver(order, bound, original, typeof rootType === 'function' ? rootType : undefined);
    replaced++;
  }
  return replaced;
}

function leanResolver(
  order: readonly string[],
  call: (...args: unknown[]) => unknown,
  original: GraphQLFieldResolver<unknown, unknown>,
  rootType: (abstract new (...args: never[]) => unknown) | undefined,
): GraphQLFieldResolver<unknown, unknown> {
  const convertible = (root: unknown) => rootType !== undefined && root != null && typeof root === 'object' && !(root instanceof rootType);
  const key = order.join(',');
  // The common shapes as straight calls; any other order through a small map.
  switch (key) {
    case 'root,context':
      return (root, args, ctx, info) => (convertible(root) ? original(root, args, ctx, info) : call(root, ctx));
    case 'root,context,info':
      return (root, args, ctx, info) => (convertible(root) ? original(root, args, ctx, info) : call(root, ctx, info));
    case 'context':
      return (_root, _args, ctx) => call(ctx);
    case 'root':
      return (root, args, ctx, info) => (convertible(root) ? original(root, args, ctx, info) : call(root));
    default:
      return (root, args, ctx, info) => {
        if (convertible(root)) return original(root, args, ctx, info);
        return call(...order.map((kind) => (kind === 'root' ? root : kind === 'context' ? ctx : info)));
      };
  }
}
