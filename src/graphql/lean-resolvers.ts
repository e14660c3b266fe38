import { dirname, join } from 'node:path';
import { isObjectType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/**
 * TypeGraphQL calls every `@FieldResolver` through a generic handler: per call it builds a
 * resolver-data object, asks its container for the resolver instance, runs the (empty) middleware
 * chain, sorts the parameter list in place and maps each parameter through a switch. On a page
 * of 200 deals that is some 4,000 calls, and the profile of the deals list showed it (with the
 * garbage it leaves) among the largest costs of the request.
 *
 * A getter of the type itself under the field's own name (`fullName`, `databaseId`) gets no
 * resolver: the executor reads the property inline, as it reads a column, with none of a resolver
 * call's resolve info, path and closures (about 4,000 of a deals page's 8,500 calls, issue 28).
 * That needs its roots to be instances of the type (the getter is on the prototype) and its value
 * to be no promise (graphql-jit does not wait for a property): rows are hydrated entities
 * everywhere, and no getter of the schema is async. With a name of its own (`id` from `nodeId`)
 * the getter is read by a resolver, from a root of that type.
 * For a field resolver whose parameters are `@Root()`, `@Ctx()`, `@Info()`, `@Args()` and `@Arg()`
 * and which has no middleware or roles (the schema is built with neither, globally or per field),
 * the field's `resolve` is replaced by a direct call of the method on one instance of its resolver
 * class, the default container's behaviour. A root that is not an instance of the declared type
 * (which TypeGraphQL would convert) goes through the original handler.
 *
 * Arguments are converted to their classes by TypeGraphQL's own functions (validation is off
 * schema-wide: `validate: false`), once per field of an operation and its variables: a field's
 * arguments are fixed by its place in the document and the variables, so the 200 deals of a page
 * share one converted `people(first: 200)` (issue 28: TypeGraphQL converted, "validated" through
 * an async function and awaited them on every deal, ~6% of the deals page). The converted values
 * are shared by those calls: a resolver must not change its arguments. Returns how many fields
 * were replaced.
 */
type Param = {
  readonly kind: string;
  readonly index: number;
  readonly name?: string;
  readonly propertyName?: string;
  readonly getType?: () => unknown;
  readonly validateSettings?: unknown;
  readonly validateFn?: unknown;
};
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

const LEAN_KINDS = new Set(['root', 'context', 'info', 'args', 'arg']);

/** TypeGraphQL's argument conversion (not exported by the package: read from its build, checked at boot). */
interface ArgConversion {
  convertArgsToInstance(param: Param, args: Record<string, unknown>): unknown;
  convertArgToInstance(param: Param, args: Record<string, unknown>): unknown;
}

function argConversion(): ArgConversion | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file of the pinned version, found at boot
    const found = require(join(dirname(require.resolve('type-graphql')), 'resolvers', 'convert-args.js')) as Partial<ArgConversion>;
    return typeof found.convertArgsToInstance === 'function' && typeof found.convertArgToInstance === 'function' ? (found as ArgConversion) : null;
  } catch {
    return null;
  }
}

export function leanFieldResolvers(schema: GraphQLSchema): number {
  const storage = getMetadataStorage() as unknown as { fieldResolvers: readonly FieldResolverMeta[]; objectTypes: readonly ObjectTypeMeta[] };
  const instances = new Map<unknown, Record<string, (...args: unknown[]) => unknown>>();
  const conversion = argConversion();
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
      const name = meta.methodName;
      const ownerType = owner as RootClass;
      if (typeof Object.getOwnPropertyDescriptor((ownerType as { prototype: object }).prototype, name)?.get !== 'function') continue;
      if (meta.schemaName === name) {
        // Read inline by the executor, as a column is: no resolver call, no resolve info, no closures.
        field.resolve = undefined;
      } else {
        const original = field.resolve;
        field.resolve = (root, args, ctx, info) => (root instanceof ownerType ? (root as Record<string, unknown>)[name] : original(root, args, ctx, info));
      }
      replaced++;
      continue;
    }
    const params = [...(meta.params ?? [])].sort((a, b) => a.index - b.index);
    if (!params.every((p) => LEAN_KINDS.has(p.kind))) continue;
    const argParams = params.filter((p) => p.kind === 'args' || p.kind === 'arg');
    if (argParams.length > 0 && (!conversion || argParams.some((p) => p.validateSettings !== undefined || p.validateFn !== undefined))) continue;
    let instance = instances.get(meta.target);
    if (!instance) instances.set(meta.target, (instance = new meta.target()));
    const method = instance[meta.methodName];
    if (typeof method !== 'function') continue;
    const original = field.resolve;
    const rootParam = params.find((p) => p.kind === 'root');
    const rootType = rootParam?.getType?.() as RootClass | undefined;
    if (rootParam?.propertyName || params.some((p) => p.kind === 'context' && p.propertyName)) continue;
    const bound = method.bind(instance);
    const rootClass = typeof rootType === 'function' ? rootType : undefined;
    field.resolve =
      argParams.length > 0
        ? argResolver(params, bound, original, rootClass, conversion!)
        : leanResolver(
            params.map((p) => p.kind),
            bound,
            original,
            rootClass,
          );
    replaced++;
  }
  return replaced;
}

type RootClass = abstract new (...args: never[]) => unknown;

/** A root TypeGraphQL would convert to the resolver's root class: those go through its handler. */
const convertible = (root: unknown, rootType: RootClass | undefined) =>
  rootType !== undefined && root != null && typeof root === 'object' && !(root instanceof rootType);

/**
 * A field resolver with arguments: its parameters in order, the converted arguments kept per
 * field nodes (fixed by the compiled document) and variables (one object per execution).
 */
function argResolver(
  params: readonly Param[],
  call: (...args: unknown[]) => unknown,
  original: GraphQLFieldResolver<unknown, unknown>,
  rootType: RootClass | undefined,
  conversion: ArgConversion,
): GraphQLFieldResolver<unknown, unknown> {
  const converted = new WeakMap<object, WeakMap<object, unknown[]>>();
  const convert = (args: Record<string, unknown>) =>
    params.map((p) =>
      p.kind === 'args' ? conversion.convertArgsToInstance(p, args) : p.kind === 'arg' ? conversion.convertArgToInstance(p, args) : undefined,
    );
  const argsOf = (args: Record<string, unknown>, info: GraphQLResolveInfo): unknown[] => {
    const nodes = info?.fieldNodes as object | undefined;
    const variables = info?.variableValues as object | undefined;
    if (!nodes || !variables) return convert(args);
    let byVariables = converted.get(nodes);
    if (!byVariables) converted.set(nodes, (byVariables = new WeakMap()));
    let values = byVariables.get(variables);
    if (!values) byVariables.set(variables, (values = convert(args)));
    return values;
  };
  return (root, args, ctx, info) => {
    if (convertible(root, rootType)) return original(root, args, ctx, info);
    const values = argsOf(args as Record<string, unknown>, info);
    const callArgs = new Array<unknown>(params.length);
    for (let i = 0; i < params.length; i++) {
      const kind = params[i].kind;
      callArgs[i] = kind === 'root' ? root : kind === 'context' ? ctx : kind === 'info' ? info : values[i];
    }
    return call(...callArgs);
  };
}

function leanResolver(
  order: readonly string[],
  call: (...args: unknown[]) => unknown,
  original: GraphQLFieldResolver<unknown, unknown>,
  rootType: RootClass | undefined,
): GraphQLFieldResolver<unknown, unknown> {
  const key = order.join(',');
  // The common shapes as straight calls; any other order through a small map.
  switch (key) {
    case 'root,context':
      return (root, args, ctx, info) => (convertible(root, rootType) ? original(root, args, ctx, info) : call(root, ctx));
    case 'root,context,info':
      return (root, args, ctx, info) => (convertible(root, rootType) ? original(root, args, ctx, info) : call(root, ctx, info));
    case 'context':
      return (_root, _args, ctx) => call(ctx);
    case 'root':
      return (root, args, ctx, info) => (convertible(root, rootType) ? original(root, args, ctx, info) : call(root));
    default:
      return (root, args, ctx, info) => {
        if (convertible(root, rootType)) return original(root, args, ctx, info);
        return call(...order.map((kind) => (kind === 'root' ? root : kind === 'context' ? ctx : info)));
      };
  }
}
