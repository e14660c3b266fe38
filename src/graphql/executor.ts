import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  Kind,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  parse,
  typeFromAST,
  validate,
  type GraphQLFormattedError,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
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
  const compiled = new Map<string, { query: CompiledQuery; variables: readonly VariableDefinitionNode[] }>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
    const query = compileQuery(schema, document, definition.name.value, { customSerializers: { DateTimeISO: (v: unknown) => v } });
    if (!isCompiledQuery(query)) throw new Error(`Operation ${definition.name.value} does not compile: ${JSON.stringify(query.errors)}`);
    compiled.set(definition.name.value, { query, variables: definition.variableDefinitions ?? [] });
  }
  const run: OperationRunner = async (name, variables, ctx) => {
    const operation = compiled.get(name);
    if (!operation) throw new Error(`Unknown operation ${name}`);
    for (const def of operation.variables) {
      const type = typeFromAST(schema, def.type) as GraphQLInputType | undefined;
      if (type && variables[def.variable.name.value] != null) fillInputDefaults(variables[def.variable.name.value], type);
    }
    try {
      const result = await operation.query.query(undefined, ctx, variables);
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

/** An input default as a client would write it (enum defaults are stored as internal values). */
function externalDefault(type: GraphQLInputType, value: unknown): unknown {
  const named = getNamedType(type);
  if (isEnumType(named)) return named.getValues().find((v) => v.value === value)?.name ?? value;
  return value;
}

/**
 * graphql-jit 0.8.9 does not apply the defaults of input-object fields a variable leaves out, so a
 * required field with a default (`checkForDuplicates: Boolean! = false`) would be reported missing.
 * This fills them in, in place, as graphql-js would.
 */
function fillInputDefaults(value: unknown, type: GraphQLInputType): void {
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) {
    if (Array.isArray(value)) for (const item of value) if (item != null) fillInputDefaults(item, inner.ofType);
    return;
  }
  if (!isInputObjectType(inner) || typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const field of Object.values(inner.getFields())) {
    if (record[field.name] === undefined && field.defaultValue !== undefined) record[field.name] = externalDefault(field.type, field.defaultValue);
    else if (record[field.name] != null) fillInputDefaults(record[field.name], field.type);
  }
}
