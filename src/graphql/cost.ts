import { collectFields, collectSubfields } from 'graphql/execution/collectFields';
import { getArgumentValues } from 'graphql/execution/values';
import {
  Kind,
  getNamedType,
  getNullableType,
  isAbstractType,
  isListType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { MAX_PAGE_SIZE } from './connection';

/** Rows one cost unit pays for: one v3 request reads at most one page of 200. */
export const ROWS_PER_UNIT = MAX_PAGE_SIZE;

/** Default page size of a paged list by its page type, when the operation leaves perPage out (else 100). */
const DEFAULT_PER_PAGE: Readonly<Record<string, number>> = { ListItemConnection: 200 };

/**
 * What an operation costs, in the unit of the v3 rate limit (one v3 request = 1), from the document
 * and the (coerced) variables alone, before anything runs:
 * - each root field costs 1 (every alias counts; `__schema`, `__type`, `__typename` cost 0), a
 *   mutation field as well: one root field with one page and its convenience objects is what one
 *   v3 request does;
 * - each connection below a root field (a list with `first`/`last`, e.g. `Company.people`)
 *   costs ceil(N × perPage / 200) more, N being how many times it is resolved: the product of the
 *   page sizes of the lists above it (1 under a single object);
 * - the page size is `first`, `last` or `perPage` as asked, clamped to 1..200, else the list's default (100;
 *   admin lists 200); fields skipped by `@skip`/`@include` cost nothing;
 * - other lists (tags, customFields, ...) are convenience objects of their row and cost nothing.
 */
export function operationCost(schema: GraphQLSchema, fragments: Record<string, FragmentDefinitionNode>, variables: Record<string, unknown>, operation: OperationDefinitionNode): number {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return 0;
  let total = 0;
  for (const nodes of collectFields(schema, fragments, variables, root, operation.selectionSet).values()) {
    const field = root.getFields()[nodes[0].name.value];
    if (!field) continue; // __schema, __type, __typename
    total += 1 + below(field, nodes, 1);
  }
  return total;

  /** Cost of what is selected under `field`, resolved `times` times. */
  function below(field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[], times: number): number {
    const perPage = pageSizeOf(field, nodes[0], variables);
    // The page's entries are resolved perPage times as often as the page itself.
    return subselectionCost(field, nodes, times, perPage);
  }

  function subselectionCost(field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[], times: number, perPage: number | null): number {
    const named = getNamedType(field.type);
    const types: readonly GraphQLObjectType[] = isObjectType(named) ? [named] : isAbstractType(named) ? schema.getPossibleTypes(named) : [];
    let most = 0;
    for (const type of types) {
      let sum = 0;
      for (const subNodes of collectSubfields(schema, fragments, variables, type, nodes).values()) {
        const sub = type.getFields()[subNodes[0].name.value];
        if (!sub) continue;
        // `nodes` and `edges` of a connection (the lists it holds) multiply by the page size.
        const subTimes = perPage !== null && isListType(getNullableType(sub.type)) ? times * perPage : times;
        const subPage = pageSizeOf(sub, subNodes[0], variables);
        if (subPage !== null) sum += Math.ceil((subTimes * subPage) / ROWS_PER_UNIT);
        sum += subselectionCost(sub, subNodes, subTimes, subPage);
      }
      most = Math.max(most, sum);
    }
    return most;
  }
}

/** The page size a paged list field (a connection) asks for, clamped as the API clamps it, or null for any other field. */
function pageSizeOf(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): number | null {
  if (!field.args.some((a) => a.name === 'first')) return null;
  const fallback = DEFAULT_PER_PAGE[getNamedType(field.type).name] ?? 100;
  let args: Record<string, unknown> = {};
  try {
    args = getArgumentValues(field, node, variables);
  } catch {
    // a bad value is reported when the operation runs
  }
  const asked = [args.first, args.last, args.perPage].find((v) => typeof v === 'number' && Number.isFinite(v));
  const size = typeof asked === 'number' ? Math.trunc(asked) : fallback;
  return Math.min(Math.max(size, 1), MAX_PAGE_SIZE);
}

/** The fragments of a document by name, as collectFields wants them. */
export function fragmentsOf(definitions: readonly { kind: Kind }[]): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[(def as FragmentDefinitionNode).name.value] = def as FragmentDefinitionNode;
  return fragments;
}
