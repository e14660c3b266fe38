import { FacadeInputError } from '../errors/facade-error';

/**
 * Bounds on decoded input (DECISIONS: Paths and requests: "Bounded nesting depth, array length,
 * param count"). Depth counts the containers below the top level: `person[tag_ids][]` is 2,
 * `person[custom_fields][custom_label_3][]` is 3; a JSON body is measured the same way.
 */
export interface ParamLimits {
  readonly maxDepth: number;
  readonly maxArrayLength: number;
  readonly maxParams: number;
  readonly maxKeyLength: number;
}

export const DEFAULT_PARAM_LIMITS: ParamLimits = Object.freeze({ maxDepth: 5, maxArrayLength: 1000, maxParams: 1000, maxKeyLength: 200 });

type Container = Record<string, unknown> | unknown[];

/** Keys that reach Object.prototype through a later merge or `target[key]` walk. None is a v3 attribute. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

/** `name[a][][b]` → ['name', 'a', '', 'b'] ('' = append to a list); `[name]` when not bracket syntax. */
const BRACKETS = /^(?:\[[^[\]]*\])+$/;
const SEGMENT = /\[([^[\]]*)\]/g;

function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open < 0) return [key];
  if (open === 0) return ['']; // `[x]=1`: no name, dropped
  const rest = key.slice(open);
  // Not clean bracket syntax (`a[b`, `a[b]c`): keep the literal name; unknown names are ignored later.
  if (!BRACKETS.test(rest)) return [key];
  const segments = [key.slice(0, open)];
  for (const m of rest.matchAll(SEGMENT)) segments.push(m[1]);
  return segments;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function read(container: Container, slot: string | number): unknown {
  if (Array.isArray(container)) return container[slot as number];
  return Object.prototype.hasOwnProperty.call(container, slot) ? container[slot as string] : undefined;
}

function write(container: Container, slot: string | number, value: unknown): void {
  // Stryker disable next-line ConditionalExpression: both branches make the same assignment (typed apart for the compiler)
  if (Array.isArray(container)) container[slot as number] = value;
  else container[slot as string] = value;
}

/** Rack's rule for `a[][b]`: a repeated path starts a new element, a new key joins the last one. */
function hasPath(value: unknown, path: readonly string[]): boolean {
  // Stryker disable next-line StringLiteral: a form-built object never has a '' key, so the walk fails there anyway
  if (path.includes('')) return false;
  let node = value;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return false;
    node = node[key];
  }
  return true;
}

function conflict(key: string): FacadeInputError {
  // Rack answers 400 too ("expected Hash (got String)"): the request is ambiguous, not invalid.
  return new FacadeInputError(key, 'conflicts with another parameter of the same name', 400);
}

function push(list: unknown[], value: unknown, key: string, limits: ParamLimits): void {
  if (list.length >= limits.maxArrayLength) throw new FacadeInputError(key, `has too many elements (maximum is ${limits.maxArrayLength})`, 413);
  list.push(value);
}

function insert(root: Record<string, unknown>, key: string, segments: readonly string[], value: string, limits: ParamLimits): void {
  let container: Container = root;
  let slot: string | number = segments[0];
  for (let i = 1; i < segments.length; i++) {
    const current = read(container, slot);
    if (segments[i] === '') {
      let list: unknown[];
      if (current === undefined) write(container, slot, (list = []));
      else if (Array.isArray(current)) list = current;
      else throw conflict(key);
      if (i === segments.length - 1) return push(list, value, key, limits);
      const rest = segments.slice(i + 1);
      const last = list[list.length - 1];
      if (rest[0] === '' || !isPlainObject(last) || hasPath(last, rest)) push(list, rest[0] === '' ? [] : {}, key, limits);
      container = list;
      slot = list.length - 1;
    } else {
      let object: Record<string, unknown>;
      if (current === undefined) write(container, slot, (object = {}));
      else if (isPlainObject(current)) object = current;
      else throw conflict(key);
      container = object;
      slot = segments[i];
    }
  }
  const existing = read(container, slot);
  if (existing !== undefined && typeof existing !== 'string') throw conflict(key);
  write(container, slot, value); // a repeated plain key: the last one wins, as in Rack
}

/**
 * A container whose keys are exactly `0, 1, … n-1` (canonical, consecutive, from 0) is a list: the
 * older official Ruby gem sends `conditions[deal_stage][0]=2&conditions[deal_stage][1]=3` and the
 * real service answered the matching deals (cassettes deals_filtered_by_stage,
 * people_filtered_by_status, deals_filtered_by_custom_field; DECISIONS: Responses: "Lists given
 * with indexed keys ... are lists, wherever a list is accepted"). Anything else (`[0]` and `[2]`,
 * `[01]`, `[a]`) stays an object, refused where a list is wanted as before. The elements are in
 * index order (JavaScript lists integer keys ascending), whatever order they were sent in.
 */
function indexedElements(node: Record<string, unknown>): unknown[] | null {
  const keys = Object.keys(node);
  if (keys.length === 0) return null;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== String(i)) return null;
  return keys.map((key) => node[key]);
}

/**
 * Turns every nested index-keyed object into a list, in place (not the top level: its keys are
 * parameter names). The one rule for query strings, form and multipart bodies and JSON bodies, so
 * every list consumer (`*_ids`, id conditions, custom field values) sees a list. Bounded like a
 * list: more than `maxArrayLength` elements is the same 413. Iterative: depth is already bounded.
 */
function indexedKeysToLists(root: Container, limits: ParamLimits): void {
  const stack: Array<{ node: Container; path: string }> = [{ node: root, path: '' }];
  const name = (path: string, key: string) => (path === '' ? key : `${path}[${key}]`);
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const slots: Array<string | number> = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const slot of slots) {
      let child = read(node, slot);
      if (typeof child !== 'object' || child === null) continue;
      const childPath = Array.isArray(node) ? name(path, '') : name(path, slot as string);
      if (!Array.isArray(child)) {
        const elements = indexedElements(child as Record<string, unknown>);
        if (elements) {
          if (elements.length > limits.maxArrayLength)
            throw new FacadeInputError(childPath, `has too many elements (maximum is ${limits.maxArrayLength})`, 413);
          write(node, slot, (child = elements));
        }
      }
      stack.push({ node: child as Container, path: childPath });
    }
  }
}

function keyTooLong(key: string, limits: ParamLimits): FacadeInputError {
  return new FacadeInputError(key.slice(0, limits.maxKeyLength), `is longer than ${limits.maxKeyLength} characters`, 413);
}

/*
 * Not `qs` (issue 25 §5; docs/v3-facade.md, "Bracket parameters", shows each case): with any of its
 * options (depth, arrayLimit, parameterLimit, allowDots: false, duplicates: 'last', strictDepth,
 * throwOnLimitExceeded) it merges `a[][b]=1&a[][c]=2&a[][b]=3` into `[{b: '3', c: '2'}]` where Rack
 * starts a new element (`[{b: '1', c: '2'}, {b: '3'}]`), flattens `a[][]`, merges a name used as a
 * value and a container instead of refusing it (400), compacts `a[0]&a[2]` into a list, reads
 * `c[d]e` and `[x]` as brackets, drops `toString[a]` (or, with allowPrototypes, keeps
 * `b[constructor]`), and its limit errors name no parameter.
 */

/**
 * Rails/Rack-style keys to nested objects and lists (v3 §1.3: `root[attr]=v`, `root[attr][]=v`;
 * DECISIONS: nested `root[custom_fields][custom_label_3][]=1`). Plain objects are built, but a
 * param with a `__proto__`/`constructor`/`prototype` segment is dropped and lookups use own
 * properties only, so nothing reaches Object.prototype. Limits: too many params, too long a key
 * or too long a list → 413; nesting deeper than `maxDepth` → 422; a name used both as a value
 * and as a container → 400. Each names the offending key. Keys `[0]…[n-1]` make a list, like `[]`
 * (see indexedKeysToLists).
 */
export function parseNestedParams(flat: Iterable<[string, string]>, limits: ParamLimits = DEFAULT_PARAM_LIMITS): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let count = 0;
  for (const [key, value] of flat) {
    if (++count > limits.maxParams) throw new FacadeInputError(key.slice(0, limits.maxKeyLength), `exceeds the limit of ${limits.maxParams} parameters`, 413);
    if (key.length > limits.maxKeyLength) throw keyTooLong(key, limits);
    const segments = splitKey(key);
    if (segments[0] === '' || segments.some(isForbiddenKey)) continue;
    if (segments.length - 1 > limits.maxDepth) throw new FacadeInputError(key, `is nested too deeply (maximum depth is ${limits.maxDepth})`);
    insert(root, key, segments, value, limits);
  }
  indexedKeysToLists(root, limits);
  return root;
}

/**
 * The same bounds for a parsed JSON body, so both body forms decode to the same input
 * (DECISIONS: Paths and requests). Prototype-pollution keys are deleted in place (silently, like
 * any unknown attribute). Counts leaves (scalars and empty containers) against `maxParams`, which
 * is what a form body of the same data would count. Iterative, so a hostile depth cannot blow
 * the stack. An object keyed `"0"…"n-1"` becomes a list, as in a form (see indexedKeysToLists).
 * Returns `value` itself.
 */
export function checkJsonShape<T>(value: T, limits: ParamLimits = DEFAULT_PARAM_LIMITS): T {
  if (typeof value !== 'object' || value === null) return value;
  const stack: Array<{ node: Container; depth: number; path: string }> = [{ node: value as Container, depth: 0, path: '' }];
  let leaves = 0;
  const name = (path: string, key: string) => (path === '' ? key : `${path}[${key}]`);
  const visit = (child: unknown, depth: number, path: string) => {
    if (typeof child === 'object' && child !== null) {
      if (depth > limits.maxDepth) throw new FacadeInputError(path, `is nested too deeply (maximum depth is ${limits.maxDepth})`);
      stack.push({ node: child as Container, depth, path });
    } else if (++leaves > limits.maxParams) {
      throw new FacadeInputError(path, `exceeds the limit of ${limits.maxParams} parameters`, 413);
    }
  };
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop()!;
    if (Array.isArray(node)) {
      if (node.length > limits.maxArrayLength) throw new FacadeInputError(path || '[]', `has too many elements (maximum is ${limits.maxArrayLength})`, 413);
      if (node.length === 0 && ++leaves > limits.maxParams) throw new FacadeInputError(path, `exceeds the limit of ${limits.maxParams} parameters`, 413);
      for (const child of node) visit(child, depth + 1, name(path, ''));
      continue;
    }
    const keys = Object.keys(node);
    if (keys.length > limits.maxParams) throw new FacadeInputError(path, `exceeds the limit of ${limits.maxParams} parameters`, 413);
    if (keys.length === 0 && depth > 0 && ++leaves > limits.maxParams)
      throw new FacadeInputError(path, `exceeds the limit of ${limits.maxParams} parameters`, 413);
    for (const key of keys) {
      if (isForbiddenKey(key)) {
        delete node[key];
        continue;
      }
      if (key.length > limits.maxKeyLength) throw keyTooLong(name(path, key), limits);
      visit(node[key], depth + 1, name(path, key));
    }
  }
  indexedKeysToLists(value as Container, limits);
  return value;
}
