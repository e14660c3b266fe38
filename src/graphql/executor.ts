import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { Kind, parse, validate, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { RequestContext } from './context';
import { formatAny, formatError } from './errors';

export interface OperationResult {
  readonly data: Record<string, unknown> | null;
  readonly errors: readonly GraphQLFormattedError[];
}

export type OperationRunner = (name: string, variables: Record<string, unknown>, ctx: RequestContext) => Promise<OperationResult>;

/**
 * Parses and validates a set of static operations once, at boot, and compiles each with
 * graphql-jit, so running one costs no parsing, no validation and no per-field interpretation.
 * Dates stay Date objects (the caller formats them once, last).
 */
export function compileOperations(schema: GraphQLSchema, source: string): { run: OperationRunner; names: string[] } {
  const document = parse(source, { noLocation: true });
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`Invalid operations: ${problems.map((p) => p.message).join('; ')}`);
  const compiled = new Map<string, CompiledQuery>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
    const query = compileQuery(schema, document, definition.name.value, { customSerializers: { DateTimeISO: (v: unknown) => v } });
    if (!isCompiledQuery(query)) throw new Error(`Operation ${definition.name.value} does not compile: ${JSON.stringify(query.errors)}`);
    compiled.set(definition.name.value, query);
  }
  const run: OperationRunner = async (name, variables, ctx) => {
    const query = compiled.get(name);
    if (!query) throw new Error(`Unknown operation ${name}`);
    try {
      const result = await query.query(undefined, ctx, variables);
      return {
        data: (result.data as Record<string, unknown> | null | undefined) ?? null,
        errors: (result.errors ?? []).map((e) => formatError(e.toJSON(), e)),
      };
    } catch (error) {
      return { data: null, errors: [formatAny(error)] };
    }
  };
  return { run, names: [...compiled.keys()] };
}
