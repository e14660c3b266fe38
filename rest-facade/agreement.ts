import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { conditionTable, isVocabulary, OPERATORS, type Conditions, type ConditionSpec, type ConditionTable } from './request/conditions';
import type { AttributeType, V3Resource } from './resources/resource-spec';
import type { RouteSpec } from './routes/route-spec';
import { operationOf, sortEnumOf, sortTableFor, variableType } from './routes/sort-table';

/**
 * Whether the field tables, the operations and the GraphQL types agree. Run at boot (the server
 * refuses to start otherwise) and by test/contract/field-tables.test.ts. Each problem is a
 * sentence naming the resource or route.
 */
export function checkFacade(schema: GraphQLSchema, operations: DocumentNode, routes: readonly RouteSpec[], resources: readonly V3Resource[]): string[] {
  const problems: string[] = [];
  for (const resource of resources) problems.push(...checkResource(schema, resource));
  const selectedOptional = new Set<string>();
  for (const route of routes) problems.push(...checkRoute(schema, operations, route, selectedOptional));
  for (const resource of new Set(routes.map((r) => r.resource))) {
    for (const [key, field] of Object.entries(resource.fields)) {
      if (field.optional && !selectedOptional.has(`${resource.root}.${key}`)) problems.push(`${resource.root}.${key}: optional, but no operation selects it`);
    }
  }
  return problems;
}

/** Every table field exists on the resource's type, with a selection exactly when it is an object, and enum maps cover the enum. */
export function checkResource(schema: GraphQLSchema, resource: V3Resource): string[] {
  const problems: string[] = [];
  const type = schema.getType(resource.type);
  if (!isObjectType(type)) return [`${resource.root}: ${resource.type} is not a GraphQL object type`];
  const fields = type.getFields();
  for (const [key, spec] of Object.entries(resource.fields)) {
    const where = `${resource.root}.${key}`;
    const field = fields[spec.from];
    if (!field) {
      problems.push(`${where}: ${resource.type} has no field ${spec.from}`);
      continue;
    }
    const named = getNamedType(field.type);
    if (isCompositeType(named) && !spec.select && !spec.optional) problems.push(`${where}: ${resource.type}.${spec.from} is an object and needs a selection`);
    if (isLeafType(named) && spec.select) problems.push(`${where}: ${resource.type}.${spec.from} is a ${named.name} and takes no selection`);
    if (typeof spec.show === 'object' && 'enum' in spec.show) {
      if (!isEnumType(named)) problems.push(`${where}: shown as an enum, but ${resource.type}.${spec.from} is a ${named.name}`);
      else
        for (const value of named.getValues())
          if (spec.show.enum[value.name] === undefined) problems.push(`${where}: no v3 value for ${named.name}.${value.name}`);
    }
  }
  return problems;
}

/** The input types each writable attribute type may feed. */
const INPUT_TYPES: Readonly<Record<AttributeType, { readonly names: readonly string[]; readonly list: boolean }>> = {
  text: { names: ['String'], list: false },
  integer: { names: ['Int', 'Float'], list: false },
  id: { names: ['Int', 'ID'], list: false },
  ids: { names: ['Int', 'ID'], list: true },
  boolean: { names: ['Boolean'], list: false },
  datetime: { names: ['DateTimeISO'], list: false },
  date: { names: ['Date', 'DateISO', 'LocalDate', 'String'], list: false },
  decimal: { names: ['String', 'Decimal', 'Float'], list: false },
  money: { names: ['Decimal'], list: false },
  customFields: { names: ['JSONObject'], list: false },
  enum: { names: [], list: false },
};

function checkInput(resource: V3Resource, input: GraphQLInputType, where: string, creates: boolean): string[] {
  if (!isInputObjectType(input)) return [`${where}: $input is not an input object`];
  const problems: string[] = [];
  const fields = input.getFields();
  // A required input field the facade would leave out fails the whole request instead of naming the field.
  const required = new Set(creates ? (resource.requiredOnCreate ?? []) : []);
  for (const field of Object.values(fields)) {
    if (isNonNullType(field.type) && field.defaultValue === undefined && !required.has(field.name))
      problems.push(`${where}: ${input.name}.${field.name} is required, but ${resource.root} does not list it in requiredOnCreate`);
  }
  for (const name of required)
    if (!fields[name] || !isNonNullType(fields[name].type))
      problems.push(`${where}: ${resource.root} lists ${name} in requiredOnCreate, but ${input.name}.${name} is not required`);
  for (const [key, attr] of Object.entries(resource.writable)) {
    const field = fields[attr.to];
    if (!field) {
      problems.push(`${resource.root}.${key}: writable, but ${input.name} has no field ${attr.to}`);
      continue;
    }
    const nullable = getNullableType(field.type);
    const named = getNamedType(field.type);
    const expected = INPUT_TYPES[attr.type];
    if (attr.type === 'enum') {
      if (!isEnumType(named)) problems.push(`${resource.root}.${key}: an enum, but ${input.name}.${attr.to} is a ${named.name}`);
      else
        for (const value of Object.values(attr.values ?? {}))
          if (!named.getValue(value)) problems.push(`${resource.root}.${key}: ${named.name} has no value ${value}`);
    } else if (!expected.names.includes(named.name) || isListType(nullable) !== expected.list) {
      problems.push(`${resource.root}.${key}: ${attr.type} cannot feed ${input.name}.${attr.to} (${String(field.type)})`);
    }
  }
  return problems;
}

/** Response keys an operation's selection yields at a path (`people.entries`), fragments expanded. */
export function responseKeysAt(operations: DocumentNode, selection: SelectionSetNode, path: readonly string[]): Set<string> | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of operations.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const fieldsOf = (set: SelectionSetNode, out: Map<string, SelectionSetNode | null>) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) out.set(s.alias?.value ?? s.name.value, s.selectionSet ?? null);
      else if (s.kind === Kind.INLINE_FRAGMENT) fieldsOf(s.selectionSet, out);
      else {
        const fragment = fragments.get(s.name.value);
        if (fragment) fieldsOf(fragment.selectionSet, out);
      }
    }
    return out;
  };
  let node: SelectionSetNode | null = selection;
  for (const key of path) {
    node = node ? (fieldsOf(node, new Map()).get(key) ?? null) : null;
    if (!node) return null;
  }
  return new Set(fieldsOf(node, new Map()).keys());
}

function checkConditions(
  schema: GraphQLSchema,
  filter: GraphQLInputType | null,
  conditions: Conditions | Readonly<Record<string, string>> | undefined,
  where: string,
): string[] {
  if (!conditions) return [];
  if (!filter || !isInputObjectType(filter)) return [`${where}: the operation has no $filter input`];
  let table: ConditionTable | Readonly<Record<string, string>>;
  try {
    table = isVocabulary(conditions as Conditions) ? conditionTable(schema, conditions as Conditions) : (conditions as ConditionTable);
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
  if (isVocabulary(conditions as Conditions) && (conditions as { filter: string }).filter !== filter.name) {
    return [`${where}: the conditions feed ${(conditions as { filter: string }).filter}, but the operation's $filter is ${filter.name}`];
  }
  const fields = filter.getFields();
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(table)) {
    const to = typeof spec === 'string' ? spec : spec.to;
    // A dotted target walks related records' filters (`people.some.name`).
    let field = fields[to.split('.')[0]];
    for (const step of to.split('.').slice(1)) {
      const inner = field && getNamedType(field.type);
      field = inner && isInputObjectType(inner) ? inner.getFields()[step] : undefined!;
    }
    if (!field) {
      problems.push(`${where}: ${name} feeds ${filter.name}.${to}, which does not exist`);
      continue;
    }
    // Path filters feed `in`; conditions the operators of their kind.
    const operators: readonly string[] = typeof spec === 'string' ? ['in'] : (spec as ConditionSpec).raw ? [] : OPERATORS[(spec as ConditionSpec).kind];
    const named = getNamedType(field.type);
    for (const op of operators) {
      if (!isInputObjectType(named) || !named.getFields()[op]) problems.push(`${where}: ${name} feeds ${filter.name}.${to}.${op}, which does not exist`);
    }
  }
  return problems;
}

function checkRoute(schema: GraphQLSchema, operations: DocumentNode, route: RouteSpec, selectedOptional: Set<string>): string[] {
  const where = `${route.method} ${route.path}`;
  const operation = operationOf(operations, route.op);
  if (!operation) return [`${where}: no operation ${route.op}`];
  const problems: string[] = [];
  const { resource } = route;

  // The result carries every key of the table, and only those.
  const returnsRecord = route.kind !== 'delete' || route.deleteBody === 'record';
  if (returnsRecord) {
    const path = [...route.result.split('.'), ...(route.kind === 'list' || route.kind === 'feed' ? ['nodes'] : [])];
    const keys = responseKeysAt(operations, operation.selectionSet, path);
    if (!keys) problems.push(`${where}: ${route.op} selects nothing at ${path.join('.')}`);
    else {
      for (const [key, field] of Object.entries(resource.fields)) {
        if (keys.has(key)) {
          if (field.optional) selectedOptional.add(`${resource.root}.${key}`);
        } else if (!field.optional) problems.push(`${where}: ${route.op} does not select ${resource.root}.${key}`);
      }
      for (const key of keys) if (!resource.fields[key]) problems.push(`${where}: ${route.op} selects ${key}, which is not in the ${resource.root} table`);
    }
  }

  if (route.kind === 'create' || route.kind === 'update') {
    const input = variableType(schema, operation, 'input');
    problems.push(...(input ? checkInput(resource, input, where, route.kind === 'create') : [`${where}: ${route.op} has no $input`]));
  }

  const sortEnum = sortEnumOf(schema, operation);
  if (sortEnum && !route.sort) problems.push(`${where}: ${route.op} sorts by ${sortEnum.name}, but the route declares no sort`);
  if (route.sort) {
    try {
      const table = sortTableFor(route, schema, operations) ?? {};
      const reachable = new Set(Object.values(table));
      for (const value of sortEnum?.getValues() ?? [])
        if (!reachable.has(value.name)) problems.push(`${where}: ${sortEnum!.name}.${value.name} has no v3 sort key`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }

  const filter = variableType(schema, operation, 'filter');
  problems.push(...checkConditions(schema, filter, route.conditions, `${where} conditions`));
  problems.push(...checkConditions(schema, filter, route.queryFilters, `${where} query filters`));
  problems.push(...checkConditions(schema, filter, route.pathFilters, `${where} path filters`));
  // v3 §4 search_id: the route passes it as `$searchId`.
  if (route.searchId && !variableType(schema, operation, 'searchId')) problems.push(`${where}: takes search_id, but ${route.op} has no $searchId`);
  for (const [flag, spec] of Object.entries(route.flags ?? {})) {
    const [variable, field] = spec.to.split('.');
    const type = variableType(schema, operation, variable);
    if (!type || (field !== undefined && !(isInputObjectType(type) && type.getFields()[field])))
      problems.push(`${where}: flag ${flag} feeds ${spec.to}, which ${route.op} does not take`);
  }
  return problems;
}
