import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

export const MAX_QUERY_DEPTH = 15;
export const MAX_FIELDS = 2000;

/**
 * Rejects operations nested deeper than `maxDepth` or selecting more than `maxFields` fields
 * (fragments expanded), before anything executes: a single request cannot fan out unboundedly.
 */
export function queryLimits(maxDepth = MAX_QUERY_DEPTH, maxFields = MAX_FIELDS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

    const measure = (set: SelectionSetNode, depth: number, seen: Set<string>, count: { fields: number }): number => {
      let deepest = depth;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          count.fields += 1;
          if (selection.selectionSet) deepest = Math.max(deepest, measure(selection.selectionSet, depth + 1, seen, count));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, measure(selection.selectionSet, depth, seen, count));
        } else {
          const fragment = fragments.get(selection.name.value);
          if (!fragment || seen.has(fragment.name.value)) continue;
          deepest = Math.max(deepest, measure(fragment.selectionSet, depth, new Set(seen).add(fragment.name.value), count));
        }
        if (count.fields > maxFields) return deepest;
      }
      return deepest;
    };

    return {
      OperationDefinition(node) {
        const count = { fields: 0 };
        const depth = measure(node.selectionSet, 1, new Set(), count);
        if (depth > maxDepth) context.reportError(new GraphQLError(`Query is nested too deeply: ${depth} levels (maximum is ${maxDepth})`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }));
        if (count.fields > maxFields) context.reportError(new GraphQLError(`Query selects too many fields (maximum is ${maxFields})`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }));
      },
    };
  };
}
