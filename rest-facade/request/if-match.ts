/** `If-Match` (issue 26 §2): how the facade reads it (pipeline.ts `ifMatch`) and how the OpenAPI document states it. */

/** An If-Match value: `*` or entity tags separated by commas (RFC 9110 §8.8.3: visible ASCII but `"` in a tag; no comma in ours). */
export const IF_MATCH_PATTERN = '^ *(\\*|(W/)?"[\\x21\\x23-\\x2b\\x2d-\\x7e]*"( *, *(W/)?"[\\x21\\x23-\\x2b\\x2d-\\x7e]*")*) *$';
const IF_MATCH = new RegExp(IF_MATCH_PATTERN);

/** The entity tags an If-Match value names, or `*`; null when it is no list of entity tags. */
export function ifMatchTags(header: string): '*' | string[] | null {
  if (!IF_MATCH.test(header)) return null;
  if (header.trim() === '*') return '*';
  return header.split(',').map((t) => t.trim());
}
