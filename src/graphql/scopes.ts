import {
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { Extensions, type ClassType } from 'type-graphql';
import { ForbiddenError, ScopeMissingError } from '../common/errors';

/*
 * Scopes of scoped API keys (issue 26 §3), declared where the fields are and checked in one place.
 *
 * Every root field (Query, Mutation) declares the scope it needs (`@Scope('deals:read')`, or
 * SCOPE_OPEN for what any key may use: the viewer, the account, node lookups whose records are
 * judged by their own types), and every record type the scope its fields need
 * (`declareRecordType`): the record-resource kit declares both for its resources (list and show
 * read, create, update and delete write). Before an operation runs, `requiredScopes` walks its
 * selections (fragments included, @skip/@include ignored: a field that might run counts) and
 * `checkScopes` refuses it whole, naming the first scope the viewer's key lacks. The v3 facade runs
 * GraphQL operations, so both surfaces meet the same check. A root field without a declaration is
 * refused to every scoped key, and the schema's build stops naming it (`undeclaredScopes`), so a
 * new resource cannot leak.
 */

/** What any key may use: declared, not forgotten. */
export const SCOPE_OPEN = 'open';
/** The admin surface (admin lists' writes, the outbox, API keys): the user must be an administrator as well. */
export const SCOPE_ADMIN = 'admin';

/** `<resource>:read` and `<resource>:write`: the resource as the scopes name it. */
const RESOURCE_SCOPE = /^([a-z][a-z_]{0,62}):(read|write)$/;

const known = new Set<string>([SCOPE_ADMIN]);
/** GraphQL type name → the scope reading its fields needs. */
const recordTypes = new Map<string, string>();

function remember(scope: string): void {
  if (scope === SCOPE_OPEN || scope === SCOPE_ADMIN) return;
  const match = RESOURCE_SCOPE.exec(scope);
  if (!match) throw new Error(`Scope "${scope}" is neither ${SCOPE_OPEN}, ${SCOPE_ADMIN} nor <resource>:read|write`);
  known.add(`${match[1]}:read`);
  known.add(`${match[1]}:write`);
}

/** The scope a root field (a resolver's query or mutation) needs. */
export function Scope(scope: string): MethodDecorator {
  remember(scope);
  return Extensions({ scope }) as MethodDecorator;
}

/** A record type whose fields need `scope` (a `<resource>:read`, SCOPE_OPEN or SCOPE_ADMIN) wherever they are selected. */
export function declareRecordType(typeName: string, entity: ClassType, scope: string): void {
  remember(scope);
  recordTypes.set(typeName, scope);
  Extensions({ scope })(entity);
}

/** The scopes a key may hold, sorted: `<resource>:read|write` of every declared resource, and `admin`. */
export function knownScopes(): string[] {
  return [...known].sort();
}

/** Whether `scopes` (null: a full key) grant `needed`; `write` implies `read`. */
export function grants(scopes: readonly string[] | null, needed: string): boolean {
  if (scopes === null || needed === SCOPE_OPEN) return true;
  if (scopes.includes(needed)) return true;
  return needed.endsWith(':read') && scopes.includes(`${needed.slice(0, -':read'.length)}:write`);
}

/** Whether `scopes` may read the records of GraphQL type `typeName` (undeclared types: only a full key). */
export function mayReadType(scopes: readonly string[] | null, typeName: string): boolean {
  if (scopes === null) return true;
  const scope = recordTypes.get(typeName);
  return scope !== undefined && grants(scopes, scope);
}

/** The scope reading records of GraphQL type `typeName` needs (undefined: not declared). */
export function readScopeOf(typeName: string): string | undefined {
  return recordTypes.get(typeName);
}

/** What an operation needs: scopes, and root fields that declare none (refused to every scoped key). */
export interface Requirement {
  readonly scopes: readonly string[];
  readonly undeclared: readonly string[];
}

const scopeOf = (extensions: unknown): string | undefined => {
  const scope = (extensions as { scope?: unknown } | null | undefined)?.scope;
  return typeof scope === 'string' ? scope : undefined;
};

const requirements = new WeakMap<DocumentNode, Map<string, Requirement>>();

/** The scopes of `operationName` in `document` (validated against `schema`), computed once per document and operation. */
export function requiredScopes(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): Requirement {
  let byOperation = requirements.get(document);
  if (!byOperation) requirements.set(document, (byOperation = new Map()));
  const key = operationName ?? '';
  const cached = byOperation.get(key);
  if (cached) return cached;
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const scopes = new Set<string>();
  const undeclared = new Set<string>();
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name]);
  const spread = new Set<string>();
  const typeScopes = (type: GraphQLNamedType): void => {
    const types = isAbstractType(type) ? schema.getPossibleTypes(type) : isObjectType(type) ? [type] : [];
    for (const t of types) {
      const scope = scopeOf(t.extensions);
      if (scope && scope !== SCOPE_OPEN) scopes.add(scope);
    }
  };
  const walk = (type: GraphQLNamedType | undefined | null, selectionSet: SelectionSetNode): void => {
    if (!type || !('getFields' in type) || typeof type.getFields !== 'function') return;
    const composite = type as GraphQLCompositeType & { getFields(): Record<string, { type: unknown; extensions: unknown }> };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        // The type of a record is something to read: on an interface or union, it is any of its types'.
        if (name === '__typename' && isAbstractType(composite)) typeScopes(composite);
        if (name.startsWith('__')) continue;
        const field = composite.getFields()[name];
        if (!field) continue;
        typeScopes(composite);
        if (roots.has(composite.name)) {
          const scope = scopeOf(field.extensions);
          if (scope === undefined) undeclared.add(`${composite.name}.${name}`);
          else if (scope !== SCOPE_OPEN) scopes.add(scope);
        }
        if (selection.selectionSet) walk(getNamedType(field.type as never) as unknown as GraphQLNamedType, selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : composite, selection.selectionSet);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || spread.has(fragment.name.value)) continue;
        spread.add(fragment.name.value);
        walk(schema.getType(fragment.typeCondition.name.value), fragment.selectionSet);
      }
    }
  };
  if (operation) {
    const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'query' ? schema.getQueryType() : null;
    if (root) walk(root, operation.selectionSet);
  }
  const requirement: Requirement = { scopes: [...scopes].sort(), undeclared: [...undeclared].sort() };
  byOperation.set(key, requirement);
  return requirement;
}

/** Refuses an operation the viewer's key may not run: FORBIDDEN naming the first scope it lacks. */
export function checkScopes(viewerScopes: readonly string[] | null | undefined, requirement: Requirement): void {
  if (viewerScopes === null || viewerScopes === undefined) return;
  if (requirement.undeclared.length > 0) throw new ForbiddenError(`${requirement.undeclared[0]} is not open to scoped API keys`);
  const missing = requirement.scopes.find((scope) => !grants(viewerScopes, scope));
  if (missing) throw new ScopeMissingError(missing);
}

/**
 * What the schema leaves undeclared: root fields without a scope, and records (types implementing
 * Node) without the scope their fields need. The schema's build stops on any.
 */
export function undeclaredScopes(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) if (scopeOf(field.extensions) === undefined) found.push(`${root.name}.${field.name}`);
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node') && scopeOf(type.extensions) === undefined) found.push(type.name);
  }
  return found;
}
