import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GatewayExecutionResult, GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  BREAK,
  coerceInputValue,
  getVariableValues,
  GraphQLError,
  Kind,
  execute,
  visit,
  type DocumentNode,
  printSchema,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  parse,
  typeFromAST,
  validate,
  valueFromASTUntyped,
  type GraphQLFormattedError,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import type { RequestContext } from '../context/context';
import { formatAny, formatError } from './errors';
import { leafCompilerOptions, type LeafOptions } from './leaf-values';
import { checkScopes, requiredScopes, type Requirement } from './scopes';

export interface OperationResult {
  readonly data: Record<string, unknown> | null;
  readonly errors: readonly GraphQLFormattedError[];
}

export type OperationRunner = (name: string, variables: Record<string, unknown>, ctx: RequestContext) => Promise<OperationResult>;

/**
 * Input types that reach a cycle (`PersonFilter { and: [PersonFilter!] }`): graphql-jit 0.8.9
 * inlines the parsing of a variable's whole input type and never stops on such a type (stack
 * overflow at compile time). Computed once per schema.
 */
const cyclicInputs = new WeakMap<GraphQLSchema, Set<string>>();

function reachesCycle(schema: GraphQLSchema): Set<string> {
  let found = cyclicInputs.get(schema);
  if (found) return found;
  found = new Set<string>();
  const state = new Map<string, 'visiting' | 'safe' | 'cyclic'>();
  const visitType = (type: GraphQLInputObjectType): boolean => {
    const seen = state.get(type.name);
    if (seen === 'visiting' || seen === 'cyclic') return true;
    if (seen === 'safe') return false;
    state.set(type.name, 'visiting');
    let cyclic = false;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (isInputObjectType(named) && visitType(named)) cyclic = true;
    }
    state.set(type.name, cyclic ? 'cyclic' : 'safe');
    return cyclic;
  };
  for (const type of Object.values(schema.getTypeMap())) if (isInputObjectType(type) && visitType(type)) found.add(type.name);
  cyclicInputs.set(schema, found);
  return found;
}

/**
 * The document graphql-jit compiles: each variable whose type reaches a cycle is declared as the
 * pass-through `JSON` scalar instead, and its value is coerced by graphql-js before the run (see
 * `coerceCyclic`), so jit receives it ready (enum values mapped, dates parsed). Returns the
 * names and real types of those variables.
 */
function forJit(schema: GraphQLSchema, document: DocumentNode): { document: DocumentNode; cyclic: VariableInputs } {
  const cyclicTypes = reachesCycle(schema);
  const cyclic: Array<readonly [string, GraphQLInputType]> = [];
  const rewritten = visit(document, {
    VariableDefinition(node) {
      const named = getNamedType(typeFromAST(schema, node.type as never) as GraphQLInputType | undefined);
      if (!named || !cyclicTypes.has(named.name)) return undefined;
      cyclic.push([node.variable.name.value, typeFromAST(schema, node.type as never) as GraphQLInputType]);
      const json = { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'JSON' } } as const;
      return { ...node, type: node.type.kind === Kind.NON_NULL_TYPE ? { kind: Kind.NON_NULL_TYPE, type: json } : json, defaultValue: undefined };
    },
  });
  return { document: rewritten, cyclic };
}

/** Coerces the cyclic-typed variables in place, as graphql-js would; the first problem is thrown as a client error. */
function coerceCyclic(cyclic: VariableInputs, variables: Record<string, unknown>): void {
  for (const [name, type] of cyclic) {
    if (variables[name] === undefined) continue;
    variables[name] = coerceInputValue(variables[name], type, (path, _invalid, error) => {
      throw new GraphQLError(`Variable "$${name}" got invalid value${path.length ? ` at "${name}.${path.join('.')}"` : ''}; ${error.message}`, {
        extensions: { code: 'BAD_USER_INPUT' },
      });
    });
  }
}

/**
 * Parses and validates a set of static operations once, at boot, and compiles each with
 * graphql-jit, so running one costs no parsing, no validation and no per-field interpretation.
 * Dates stay Date objects (the caller formats them once, last).
 */
export function compileOperations(schema: GraphQLSchema, source: string, leaves: LeafOptions = { checked: false }): { run: OperationRunner; names: string[] } {
  const document = parse(source, { noLocation: true });
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`Invalid operations: ${problems.map((p) => p.message).join('; ')}`);
  const compiled = new Map<string, { query: CompiledQuery; inputs: VariableInputs; cyclic: VariableInputs; defaults: VariableDefaults; scopes: Requirement }>();
  const jit = forJit(schema, document);
  // Leaves unconverted, or checked under test (leaf-values.ts); dates stay Date objects for the caller.
  const options = leafCompilerOptions(schema, leaves, true);
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
    const query = compileQuery(schema, jit.document, definition.name.value, options);
    if (!isCompiledQuery(query)) throw new Error(`Operation ${definition.name.value} does not compile: ${JSON.stringify(query.errors)}`);
    const inputs = variableInputs(schema, definition.variableDefinitions ?? []);
    const cyclicTypes = reachesCycle(schema);
    const cyclic = inputs.filter(([, type]) => cyclicTypes.has(getNamedType(type).name));
    const scopes = requiredScopes(schema, document, definition.name.value);
    compiled.set(definition.name.value, { query, inputs, cyclic, defaults: variableDefaults(definition.variableDefinitions ?? []), scopes });
  }
  const run: OperationRunner = async (name, variables, ctx) => {
    const operation = compiled.get(name);
    if (!operation) throw new Error(`Unknown operation ${name}`);
    fillAbsentVariables(operation.defaults, variables);
    fillVariableDefaults(operation.inputs, variables);
    try {
      // A scoped API key runs only what its scopes allow (scopes.ts): refused whole, before anything runs.
      checkScopes(ctx.viewer.scopes, operation.scopes);
      coerceCyclic(operation.cyclic, variables);
      const result = await operation.query.query(undefined, ctx, variables);
      return {
        data: (result.data as Record<string, unknown> | null | undefined) ?? null,
        errors: (result.errors ?? []).map((e) => formatError(e.toJSON(), e, ctx.requestId)),
      };
    } catch (error) {
      return { data: null, errors: [formatAny(error, ctx.requestId)] };
    }
  };
  return { run, names: [...compiled.keys()] };
}

/** Each variable's input type, resolved once when its operation is compiled. */
type VariableInputs = ReadonlyArray<readonly [string, GraphQLInputType]>;

function variableInputs(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[]): VariableInputs {
  const inputs: Array<readonly [string, GraphQLInputType]> = [];
  for (const def of definitions) {
    const type = typeFromAST(schema, def.type) as GraphQLInputType | undefined;
    if (type) inputs.push([def.variable.name.value, type]);
  }
  return inputs;
}

/** The variables of an operation that declare a default value (`$i: Int! = 1`). */
type VariableDefaults = readonly VariableDefinitionNode[];

function variableDefaults(definitions: readonly VariableDefinitionNode[]): VariableDefaults {
  return definitions.filter((d) => d.defaultValue !== undefined);
}

/**
 * graphql-jit 0.8.9 ignores the default of a non-null variable (`$i: Int! = 1` sent without `i`
 * is "not provided"), and declares cyclic-typed variables without theirs (see forJit). Per the
 * spec an absent variable takes its default: this fills each in, in place, as a client would have
 * sent it (the literal as JSON, enum values by name), so jit parses it like any sent value. A
 * fresh value each time: the defaults filled into it later must not leak into the next request.
 */
function fillAbsentVariables(defaults: VariableDefaults, variables: Record<string, unknown>): void {
  for (const def of defaults) {
    const name = def.variable.name.value;
    if (variables[name] === undefined && def.defaultValue) variables[name] = valueFromASTUntyped(def.defaultValue);
  }
}

/**
 * A refused variable value (graphql-js's check, or graphql-jit's own parsing when it disagrees) as
 * a client error; Apollo answers 400 when no data came back.
 */
function variableError(error: GraphQLError): GraphQLError {
  const copy = new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT' } });
  if (!error.nodes && error.locations) (copy as { locations?: unknown }).locations = error.locations;
  return copy;
}

/** Fills input-object defaults into the variables, in place (see fillInputDefaults). */
function fillVariableDefaults(inputs: VariableInputs, variables: Record<string, unknown>): void {
  for (const [name, type] of inputs) if (variables[name] != null) fillInputDefaults(variables[name], type);
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
    if (!Array.isArray(value)) {
      // A single value where a list is expected is a list of one (GraphQL input coercion).
      fillInputDefaults(value, inner.ofType);
      return;
    }
    for (const item of value) if (item != null) fillInputDefaults(item, inner.ofType);
    return;
  }
  if (!isInputObjectType(inner) || typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const field of Object.values(inner.getFields())) {
    if (record[field.name] === undefined && field.defaultValue !== undefined) record[field.name] = externalDefault(field.type, field.defaultValue);
    else if (record[field.name] != null) fillInputDefaults(record[field.name], field.type);
  }
}

/**
 * graphql-jit's errors leave `extensions` undefined when their cause has none (any unexpected
 * error), and Apollo's error formatting then fails before ours runs: the client got an unlogged
 * "Internal server error". A graphql-js error with the same message, path, locations and cause
 * goes through formatError like any other (masked and logged).
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  if (error.extensions && typeof error.extensions === 'object') return error;
  const copy = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined, extensions: {} });
  if (error.locations) (copy as { locations?: unknown }).locations = error.locations;
  return copy;
}

const MAX_COMPILED = 500;

/**
 * Whether the document uses @skip or @include anywhere. graphql-jit 0.8.9 records their conditions
 * on the shared AST nodes, so a fragment spread twice, once conditionally (`...F @include(if: $x)
 * ...F`), loses its fields when the condition is false; graphql-js gets every case right.
 */
function usesConditions(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'skip' || node.name.value === 'include') found = true;
      return found ? BREAK : undefined;
    },
  });
  return found;
}

/**
 * Apollo's executor hook (its gateway interface, used here with our own schema): runs each
 * operation with graphql-jit, compiled once per document and operation and kept in a bounded LRU,
 * so clients of `/graphql` get the same execution engine as the v3 facade. Apollo still parses and
 * validates (with its document cache). Introspection stays on graphql-js, which owns it, and so do
 * documents using @skip/@include (see usesConditions); both are rare on an API.
 */
export function createJitGateway(schema: GraphQLSchema, leaves: LeafOptions = { checked: false }): GatewayInterface {
  // `query: null`: run on graphql-js.
  const compiled = new Map<
    string,
    { query: CompiledQuery | null; inputs: VariableInputs; cyclic: VariableInputs; defaults: VariableDefaults; scopes: Requirement }
  >();
  const options = leafCompilerOptions(schema, leaves, false);
  const executor: GatewayExecutor = async (request) => {
    // Apollo calls the executor even when no operation could be chosen; the guard plugin refuses those first.
    if (!request.operation)
      return { errors: [new GraphQLError('No operation to run', { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } })] };
    const key = `${request.queryHash}:${request.operationName ?? ''}`;
    let plan = compiled.get(key);
    if (plan) {
      compiled.delete(key); // most recently used goes last
    } else {
      const introspection = request.operation.selectionSet.selections.some((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
      if (introspection || usesConditions(request.document)) {
        plan = { query: null, inputs: [], cyclic: [], defaults: [], scopes: requiredScopes(schema, request.document, request.operationName) };
      } else {
        const jit = forJit(schema, request.document);
        const made = compileQuery(schema, jit.document, request.operationName ?? undefined, options);
        if (!isCompiledQuery(made)) return { errors: (made.errors ?? []).map((e) => asGraphQLError(e as GraphQLError)) };
        const definitions = request.operation.variableDefinitions ?? [];
        plan = {
          query: made,
          inputs: variableInputs(schema, definitions),
          cyclic: jit.cyclic,
          defaults: variableDefaults(definitions),
          scopes: requiredScopes(schema, request.document, request.operationName),
        };
      }
      if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    }
    compiled.set(key, plan);
    // A scoped API key runs only what its scopes allow (scopes.ts): refused whole, before anything runs.
    try {
      checkScopes((request.context as Partial<RequestContext>).viewer?.scopes, plan.scopes);
    } catch (error) {
      return { errors: [new GraphQLError((error as Error).message, { originalError: error as Error })] };
    }
    if (!plan.query) {
      return execute({
        schema,
        document: request.document,
        operationName: request.operationName,
        variableValues: request.request.variables,
        contextValue: request.context,
      });
    }
    // In gateway mode Apollo leaves variable coercion to the executor: refuse bad values as a
    // client error (graphql-js's messages), then hand jit the variables as sent.
    const checked = getVariableValues(schema, request.operation.variableDefinitions ?? [], request.request.variables ?? {}, { maxErrors: 20 });
    if (checked.errors) return { errors: checked.errors.map(variableError) };
    const variables: Record<string, unknown> = { ...(request.request.variables ?? {}) };
    fillAbsentVariables(plan.defaults, variables);
    fillVariableDefaults(plan.inputs, variables);
    // Cyclic-typed variables go to jit already coerced (declared as JSON in its document).
    for (const [name] of plan.cyclic) if (name in checked.coerced) variables[name] = checked.coerced[name];
    const result = (await plan.query.query(undefined, request.context, variables)) as GatewayExecutionResult;
    if (!result.errors) return result;
    // No data at all: jit refused the variables before running anything (its only such answer).
    if (result.data === undefined) return { errors: result.errors.map((e) => variableError(e as GraphQLError)) };
    return { ...result, errors: result.errors.map((e) => asGraphQLError(e as GraphQLError)) };
  };
  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {
      compiled.clear();
    },
  };
}
