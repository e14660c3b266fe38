import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

function collect(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, into: Map<string, SelectionSetNode | undefined>, seen = new Set<string>()): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) into.set(selection.name.value, selection.selectionSet);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet, info, into, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      collect(info.fragments[selection.name.value]?.selectionSet, info, into, seen);
    }
  }
}

/**
 * Field names selected under `path` (e.g. `['entries']`) of the current field, fragments
 * expanded: lets a list preload only the relations the operation will actually read.
 */
export function selectedFields(info: GraphQLResolveInfo, path: readonly string[] = []): Set<string> {
  let sets: Array<SelectionSetNode | undefined> = info.fieldNodes.map((node) => node.selectionSet);
  for (const name of path) {
    const next: Array<SelectionSetNode | undefined> = [];
    for (const set of sets) {
      const fields = new Map<string, SelectionSetNode | undefined>();
      collect(set, info, fields);
      if (fields.has(name)) next.push(fields.get(name));
    }
    sets = next;
  }
  const names = new Map<string, SelectionSetNode | undefined>();
  for (const set of sets) collect(set, info, names);
  return new Set(names.keys());
}
