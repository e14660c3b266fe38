import { createSchema } from '../../src/app/schema';
import { operationsSource } from '../../rest-facade';
import { RESOURCES } from '../../rest-facade/resources';

let completed = false;

/**
 * The keys a v3 record shows, in order: the spec's (`pinned`, as a contract test lists them),
 * then those the facade derives from the schema for columns added since (the field kit's, shown
 * under their snake_case name at the end). A contract test pins the spec's keys exactly and lets a
 * new column through without an edit.
 */
export function v3KeysOf(root: string, pinned: readonly string[]): string[] {
  if (!completed) {
    operationsSource(createSchema());
    completed = true;
  }
  const resource = RESOURCES.find((r) => r.root === root);
  if (!resource) throw new Error(`no v3 resource ${root}`);
  // Optional keys (an association asked for) show only when asked.
  return [...pinned, ...resource.keys.filter((key) => !pinned.includes(key) && !resource.fields[key].optional)];
}
