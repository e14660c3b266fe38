import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { RouteSpec } from './route-spec';

export function operationOf(document: DocumentNode, name: string): OperationDefinitionNode | null {
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name) return d;
  return null;
}

/** The named input type of an operation's variable (`$orderBy: [PersonOrder!]` → PersonOrder). */
export function variableType(schema: GraphQLSchema, operation: OperationDefinitionNode, variable: string): GraphQLInputType | null {
  const def = operation.variableDefinitions?.find((v) => v.variable.name.value === variable);
  const type = def ? (typeFromAST(schema, def.type as never) as GraphQLInputType | undefined) : undefined;
  return type ? (getNamedType(type) as GraphQLInputType) : null;
}

/** The enum of an operation's `$orderBy: [XOrder!]` variable (its `field`), or null. */
export function sortEnumOf(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLEnumType | null {
  const sort = variableType(schema, operation, 'orderBy');
  if (!sort || !isInputObjectType(sort)) return null;
  const field = sort.getFields().field;
  const named = field ? getNamedType(field.type) : null;
  return named && isEnumType(named) ? named : null;
}

/**
 * A route's v3 sort whitelist: each value of its operation's sort enum under its lower-case name
 * (`LAST_NAME` ↔ `last_name`), then the route's aliases. Null when the route does not sort.
 */
export function sortTableFor(route: RouteSpec, schema: GraphQLSchema, document: DocumentNode): Readonly<Record<string, string>> | null {
  if (!route.sort) return null;
  const operation = operationOf(document, route.op);
  const sortEnum = operation ? sortEnumOf(schema, operation) : null;
  if (!sortEnum) throw new Error(`${route.method} ${route.path}: sorts, but operation ${route.op} has no $orderBy enum`);
  const table: Record<string, string> = {};
  for (const value of sortEnum.getValues()) table[value.name.toLowerCase()] = value.name;
  for (const [key, value] of Object.entries(route.sort.aliases ?? {})) {
    if (!sortEnum.getValue(value)) throw new Error(`${route.method} ${route.path}: sort alias ${key} names no ${sortEnum.name} value (${value})`);
    table[key] = value;
  }
  return table;
}
