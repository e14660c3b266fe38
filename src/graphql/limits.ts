import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

export const MAX_QUERY_DEPTH = 15;
export const MAX_FIELDS = 2000;
/** Tokens graphql-js may read from one document before giving up (Apollo's `parseOptions`). */
export const MAX_DOCUMENT_TOKENS = 20_000;
/** Braces, brackets and parentheses open at once, checked on the text before parsing (the parser recurses). */
export const MAX_DOCUMENT_NESTING = 64;
/** Characters of a string input in a filter (any `*Filter` input type): what the v3 facade allows for a condition. */
export const MAX_FILTER_STRING = 200;
/** Characters of any other string input; the core also checks each column's own length. */
export const MAX_INPUT_STRING = 10_000;
/**
 * Levels of input objects and lists in one argument, inline or in variables (the argument's own
 * object or list is level 1). The deepest legitimate input is a filter with and/or/not nested the
 * 5 levels they allow (an object and a list each), then `customFields: [{choice: {in: [..]}}]`:
 * 15 levels; 20 leaves room. The check stops descending as soon as it passes the bound, so a
 * variable nested 50,000 deep is refused without recursing into it (see input-limits.ts).
 */
export const MAX_INPUT_DEPTH = 20;
/** Levels of nesting of a JSON / JSONObject input value (e.g. `customFields`), counted apart from MAX_INPUT_DEPTH. */
export const MAX_JSON_DEPTH = 20;
/** Keys and items, all levels together, of a JSON / JSONObject input value. */
export const MAX_JSON_ENTRIES = 1000;

/**
 * The deepest nesting of `{`, `[` and `(` in a GraphQL document's text, ignoring strings, block
 * strings and comments, or `null` as soon as it passes `max`: a cheap guard before the recursive
 * parser, which would otherwise run out of stack on a document nested thousands deep.
 */
export function documentNesting(text: string, max = MAX_DOCUMENT_NESTING): number | null {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === 0x22 /* " */) {
      if (text.startsWith('"""', i)) {
        i += 3;
        while (i < text.length && !text.startsWith('"""', i)) i += text.startsWith('\\"""', i) ? 4 : 1;
        i += 2;
      } else {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28 /* { [ ( */) {
      if (++depth > max) return null;
      if (depth > deepest) deepest = depth;
    } else if ((c === 0x7d || c === 0x5d || c === 0x29) /* } ] ) */ && depth > 0) {
      depth--;
    }
  }
  return deepest;
}

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
        if (depth > maxDepth)
          context.reportError(
            new GraphQLError(`Query is nested too deeply: ${depth} levels (maximum is ${maxDepth})`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }),
          );
        if (count.fields > maxFields)
          context.reportError(
            new GraphQLError(`Query selects too many fields (maximum is ${maxFields})`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }),
          );
      },
    };
  };
}
