/** One Set per attrs list, reused across the entries of a list response. */
const sets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * `attrs` selection (v3 §1.5; DECISIONS: Responses): only the named keys, nested values whole,
 * unknown names ignored, keys in the object's own order. `null` = no selection: `obj` itself.
 */
export function pickAttrs<T extends Record<string, unknown>>(obj: T, attrs: readonly string[] | null): Partial<T> {
  if (attrs === null) return obj;
  let wanted = sets.get(attrs);
  if (!wanted) sets.set(attrs, (wanted = new Set(attrs)));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) if (wanted.has(key)) out[key] = obj[key];
  return out as Partial<T>;
}
