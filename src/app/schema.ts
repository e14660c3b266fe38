import 'reflect-metadata';
import { buildSchemaSync } from 'type-graphql';
import { GraphQLSchema, lexicographicSortSchema, printSchema, type GraphQLInterfaceType, type GraphQLScalarType } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { MODULES } from '../modules';
import { unregisteredSearchTypes } from '../modules/saved-searches/saved-search.vocabulary';
import { unboundedLists } from '../graphql/cost';
import { describeFields } from '../graphql/field-docs';
import { leanFieldResolvers } from '../graphql/lean-resolvers';
import { enumNamesAtTheField } from '../graphql/leaf-values';
import { NodeResolver, nodeTypeName } from '../graphql/node';
import { undeclaredScopes } from '../graphql/scopes';

/** Every resolver of the schema: the API's own, then each module's (src/modules/index.ts). */
export const RESOLVERS = [NodeResolver, ...MODULES.flatMap((m) => m.resolvers)] as const;

export function createSchema(): GraphQLSchema {
  const schema = describeFields(withScalars(buildSchemaSync({ resolvers: [...RESOLVERS], validate: false }), [GraphQLJSON]));
  // type-graphql wraps resolveType in an async function; graphql-jit needs the type synchronously.
  (schema.getType('Node') as GraphQLInterfaceType).resolveType = (value) => nodeTypeName(value as object);
  // Field resolvers that take only the root, the context and the info are called directly.
  leanFieldResolvers(schema);
  // Leaf values go out unconverted: a field of an enum whose stored values are not its names names them (leaf-values.ts).
  enumNamesAtTheField(schema);
  // The cost of a list of records with a connection below it depends on its length (cost.ts).
  const unbounded = unboundedLists(schema);
  if (unbounded.length > 0) throw new Error(`Lists of records without a declared bound (@Extensions({ listSize: { max } })): ${unbounded.join(', ')}`);
  // Each saved-search type runs one list, registered by its record resource's `search`.
  const unsearched = unregisteredSearchTypes();
  if (unsearched.length > 0)
    throw new Error(`Saved-search types no list runs (declare \`search: savedSearches({ type })\` on its record resource): ${unsearched.join(', ')}`);
  // Every root field and record type states the scope of API keys it needs (graphql/scopes.ts).
  const unscoped = undeclaredScopes(schema);
  if (unscoped.length > 0)
    throw new Error(
      `Fields and records without the scope API keys need (@Scope(...) on the resolver, \`scopes\` of a record resource, declareRecordType): ${unscoped.join(', ')}`,
    );
  return schema;
}

/**
 * Scalars the server itself relies on, whether or not a field uses them: the executor declares
 * variables of recursive input types as `JSON` for graphql-jit (executor.ts).
 */
export function withScalars(schema: GraphQLSchema, scalars: readonly GraphQLScalarType[]): GraphQLSchema {
  const missing = scalars.filter((s) => !schema.getType(s.name));
  if (missing.length === 0) return schema;
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, types: [...config.types, ...missing] });
}

/** The committed `schema.graphql` is this text; a test fails when it drifts. */
export function printCanonicalSchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
