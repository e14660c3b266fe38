/** Attribute names are v3 snake_case keys; anything else cannot match and is dropped. */
const NAME = /^[a-z0-9_]{1,100}$/;

export const MAX_ATTRS = 100;

/**
 * `attrs=id,last_name` (v3 §1.5; DECISIONS: Responses), also `attrs[]=id&attrs[]=last_name`.
 * Names are trimmed, deduplicated, malformed ones ignored, at most MAX_ATTRS kept. Absent or
 * blank → null (full objects: a client joining an empty list means "no selection"). Names given
 * but none well-formed → [] (only those attributes, i.e. none, as for unknown names).
 */
export function parseAttrs(raw: unknown): string[] | null {
  const parts: string[] = [];
  if (typeof raw === 'string') parts.push(...raw.split(','));
  else if (Array.isArray(raw)) for (const item of raw) if (typeof item === 'string') parts.push(...item.split(','));
  const names = new Set<string>();
  let given = false;
  for (const part of parts) {
    const name = part.trim();
    if (name === '') continue;
    given = true;
    if (NAME.test(name)) names.add(name);
    if (names.size >= MAX_ATTRS) break;
  }
  return given ? [...names] : null;
}
