import { toBoolean, toDate, toDateTime, toDateTimeBound, toId, toIdList, toInteger, toText } from './coerce';
import { V3InputError } from './input-error';

/*
 * The v3 list-condition vocabulary, shared by the facade (each list route's `conditions[...]`) and
 * the core (saved searches store v3 conditions, validated when saved and read when run). The
 * tables themselves sit beside each module's fields (`src/modules/<thing>/<thing>.conditions.ts`).
 */

/**
 * How one `conditions[x]` value is read (v3 §4 list queries; DECISIONS: Conditions the spec
 * leaves unshown). `datetime` (an exact instant, v3 §4.1 `starting_at`/`ending_at`) is an
 * addition to the original list.
 */
export type ConditionKind =
  | 'ids'
  | 'id'
  | 'like'
  | 'prefix'
  | 'text'
  | 'integer'
  | 'datetimeRange'
  | 'dateRange'
  | 'numberRange'
  | 'boolean'
  | 'flag'
  | 'enum'
  | 'datetime'
  | 'customLabel';

export interface ConditionSpec {
  /** The GraphQL filter field it feeds. */
  readonly to: string;
  readonly kind: ConditionKind;
  /**
   * The value goes to the filter field as it is (e.g. `search: String`), instead of under the
   * operator its kind implies (see OPERATORS).
   */
  readonly raw?: boolean;
  /** enum: accepted v3 values, passed through as given (canonical spelling). */
  readonly values?: readonly string[];
  /** enum: v3 value → GraphQL value. */
  readonly map?: Readonly<Record<string, string>>;
  /** A value meaning "no condition" (v3 §4.5 `conditions[deal_owner]=all`). */
  readonly any?: string;
  /** flag: what a set flag feeds its filter field (default `true`), e.g. `{ eq: 'TODAY' }` (v3 §4.1 `conditions[today]`). */
  readonly feeds?: unknown;
}

export type ConditionTable = Readonly<Record<string, ConditionSpec>>;

export interface ConditionOptions {
  /**
   * How a condition is named in errors: `conditions` gives `conditions[deal_id]`; null gives the
   * bare name, for plain query filters (`/notes.json?deal_id=1`).
   */
  readonly prefix?: string | null;
}

/** Text conditions: like-matches on names, cities… 200 characters is far beyond any real one. */
export const MAX_CONDITION_TEXT = 200;

/**
 * The table key standing for every `custom_label_<id>` condition (DECISIONS: Conditions: custom
 * fields `conditions[custom_label_N][from]` / `[to]`, dropdowns `conditions[custom_label_N][]=id`),
 * with `kind: 'customLabel'` and `to` the filter's list of custom field conditions.
 */
export const CUSTOM_LABELS = 'custom_label_<id>';
/** How a custom field condition is named (the label key of `custom_fields`). */
export const CUSTOM_LABEL_KEY = /^custom_label_[1-9][0-9]{0,9}$/;
/** At most this many custom field conditions in one list request (or saved search). */
export const MAX_CUSTOM_LABEL_CONDITIONS = 20;
/** At most this many values in one custom field condition (entry ids, substrings). */
export const MAX_CUSTOM_LABEL_VALUES = 100;

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isBlank = (v: unknown) => v === undefined || v === null || v === '';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function datetimeRange(value: unknown, name: string, tz: string): { from?: string; to?: string } | undefined {
  // DECISIONS: "Datetime ranges: conditions[X][from_date] and/or conditions[X][to_date] (either alone)".
  if (!isObject(value)) throw new V3InputError(name, 'must be a range given as from_date and/or to_date');
  const from = has(value, 'from_date') ? toDateTimeBound(value.from_date, `${name}[from_date]`, tz, 'from') : null;
  const to = has(value, 'to_date') ? toDateTimeBound(value.to_date, `${name}[to_date]`, tz, 'to') : null;
  if (from === null && to === null) return undefined;
  return { ...(from !== null ? { from } : {}), ...(to !== null ? { to } : {}) };
}

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

function toNumber(value: unknown, name: string): number | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
  throw new V3InputError(name, 'must be a number');
}

function numberRange(value: unknown, name: string): { from?: number; to?: number } | undefined {
  // DECISIONS: "Numeric ranges: conditions[deal_value][from] / [to]"; a bare number is an exact match.
  if (!isObject(value)) {
    const exact = toNumber(value, name);
    return exact === null ? undefined : { from: exact, to: exact };
  }
  const from = has(value, 'from') ? toNumber(value.from, `${name}[from]`) : null;
  const to = has(value, 'to') ? toNumber(value.to, `${name}[to]`) : null;
  if (from === null && to === null) return undefined;
  return { ...(from !== null ? { from } : {}), ...(to !== null ? { to } : {}) };
}

function enumValue(value: unknown, name: string, spec: ConditionSpec): string | undefined {
  if (isBlank(value)) return undefined;
  const accepted = [...Object.keys(spec.map ?? {}), ...(spec.values ?? [])];
  if (typeof value === 'string') {
    const wanted = value.trim();
    // Exact spelling first, then case-insensitive (`lead` for `Lead`).
    const match = accepted.find((v) => v === wanted) ?? accepted.find((v) => v.toLowerCase() === wanted.toLowerCase());
    if (match !== undefined) return spec.map && has(spec.map, match) ? spec.map[match] : match;
  }
  throw new V3InputError(name, `must be one of: ${accepted.join(', ')}`);
}

/** v3 §4.1: "any value, treated as true"; an explicit false/0 is read as absent. */
function flag(value: unknown): true | undefined {
  if (value === false || value === 0) return undefined;
  if (typeof value === 'string' && ['false', '0'].includes(value.trim().toLowerCase())) return undefined;
  return true;
}

/** A date range (`[from_date]`/`[to_date]`) on a calendar-date field: each bound as its date, `YYYY-MM-DD`. */
function dateRange(value: unknown, name: string, tz: string): { from?: string; to?: string } | undefined {
  if (!isObject(value)) throw new V3InputError(name, 'must be a range given as from_date and/or to_date');
  const from = has(value, 'from_date') ? toDate(value.from_date, `${name}[from_date]`, tz) : null;
  const to = has(value, 'to_date') ? toDate(value.to_date, `${name}[to_date]`, tz) : null;
  if (from === null && to === null) return undefined;
  return { ...(from !== null ? { from } : {}), ...(to !== null ? { to } : {}) };
}

/** A custom field condition: a range (numbers or dates) or the values any of which must match. */
export interface CustomLabelCondition {
  readonly label: string;
  readonly range?: { readonly from?: string; readonly to?: string };
  readonly matches?: readonly string[];
}

const DATE_LIKE = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}(?:$|[T\s])/;

/**
 * One bound of a custom field range: a number (a decimal string, as written) or a date (any v3
 * date or datetime form, as its `YYYY-MM-DD` in `tz`). Which of the two the field takes is the
 * core's check, against the field's kind.
 */
function customBound(value: unknown, name: string, tz: string): string | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return null;
    if (text.length <= 64 && DATE_LIKE.test(text)) return toDate(text, name, tz);
    if (text.length <= 40 && NUMBER_TEXT.test(text)) return text.replace(/^\+/, '');
  }
  throw new V3InputError(name, 'must be a number or a date');
}

const RANGE_KEYS: Readonly<Record<string, 'from' | 'to'>> = { from: 'from', to: 'to', from_date: 'from', to_date: 'to' };

/**
 * `conditions[custom_label_N]`: `[from]`/`[to]` (or `[from_date]`/`[to_date]`) is an inclusive
 * range; anything else (one value, a comma-separated list, an array) the values any of which must
 * match (entry ids of a dropdown or multi-select, substrings of a text, true/false). Bounded: at
 * most MAX_CUSTOM_LABEL_VALUES values of MAX_CONDITION_TEXT characters.
 */
function customLabel(label: string, value: unknown, name: string, tz: string): CustomLabelCondition | undefined {
  if (isObject(value)) {
    const range: { from?: string; to?: string } = {};
    for (const key of Object.keys(value)) {
      const end = RANGE_KEYS[key];
      if (!end) throw new V3InputError(name, 'must be a range given as from and/or to, or one or more values');
      const bound = customBound(value[key], `${name}[${key}]`, tz);
      if (bound !== null) range[end] = bound;
    }
    return range.from === undefined && range.to === undefined ? undefined : { label, range };
  }
  const matches: string[] = [];
  const add = (raw: string) => {
    const text = raw.trim();
    if (text === '' || matches.includes(text)) return;
    if (text.length > MAX_CONDITION_TEXT && [...text].length > MAX_CONDITION_TEXT)
      throw new V3InputError(name, `is too long (maximum is ${MAX_CONDITION_TEXT} characters)`);
    if (matches.length >= MAX_CUSTOM_LABEL_VALUES) throw new V3InputError(name, `has too many values (maximum is ${MAX_CUSTOM_LABEL_VALUES})`);
    matches.push(text);
  };
  for (const item of Array.isArray(value) ? value : [value]) {
    if (isBlank(item)) continue;
    if (typeof item === 'string') item.split(',').forEach(add);
    else if ((typeof item === 'number' && Number.isFinite(item)) || typeof item === 'boolean') add(String(item));
    else throw new V3InputError(name, 'must be a value, a comma-separated list or a list of values');
  }
  return matches.length > 0 ? { label, matches } : undefined;
}

function translate(spec: ConditionSpec, value: unknown, name: string, tz: string, key: string): unknown {
  if (spec.any !== undefined && typeof value === 'string' && value.trim().toLowerCase() === spec.any) return undefined;
  switch (spec.kind) {
    case 'ids': {
      const ids = toIdList(value, name);
      return ids.length > 0 ? ids : undefined;
    }
    case 'id':
      return toId(value, name) ?? undefined;
    case 'integer':
      return toInteger(value, name) ?? undefined;
    case 'like':
    case 'prefix':
    case 'text': {
      const text = toText(value, name, Number.MAX_SAFE_INTEGER)?.trim();
      if (!text) return undefined;
      if (text.length > MAX_CONDITION_TEXT && [...text].length > MAX_CONDITION_TEXT)
        throw new V3InputError(name, `is too long (maximum is ${MAX_CONDITION_TEXT} characters)`);
      return text;
    }
    case 'datetimeRange':
      return datetimeRange(value, name, tz);
    case 'dateRange':
      return dateRange(value, name, tz);
    case 'datetime':
      return toDateTime(value, name, tz) ?? undefined;
    case 'numberRange':
      return numberRange(value, name);
    case 'boolean':
      return toBoolean(value, name) ?? undefined;
    case 'flag':
      return flag(value) && (spec.feeds ?? true);
    case 'enum':
      return enumValue(value, name, spec);
    case 'customLabel':
      return customLabel(key, value, name, tz);
  }
}

/**
 * The operator input each kind feeds (`{ contains: "ann" }`, `{ in: [1, 2] }`); ranges feed
 * `gte`/`lte`. v3 text conditions are case-insensitive substring (`like`) or prefix matches.
 */
export const OPERATORS: Readonly<Record<ConditionKind, readonly string[]>> = {
  ids: ['in'],
  id: ['eq'],
  like: ['contains'],
  prefix: ['startsWith'],
  text: ['eq'],
  integer: ['eq'],
  datetimeRange: ['gte', 'lte'],
  dateRange: ['gte', 'lte'],
  numberRange: ['gte', 'lte'],
  boolean: ['eq'],
  flag: [],
  enum: ['eq'],
  datetime: ['eq'],
  // The value is the whole custom field condition (`{label, range}` or `{label, matches}`), appended to the list.
  customLabel: ['range', 'matches'],
};

function asOperators(spec: ConditionSpec, value: unknown): unknown {
  // A custom field condition is already its filter (`{label, range}`, `{label, matches}`).
  if (spec.raw || spec.kind === 'flag' || spec.kind === 'customLabel') return value;
  if (spec.kind === 'datetimeRange' || spec.kind === 'dateRange' || spec.kind === 'numberRange') {
    const range = value as { from?: unknown; to?: unknown };
    return { ...(range.from !== undefined ? { gte: range.from } : {}), ...(range.to !== undefined ? { lte: range.to } : {}) };
  }
  return { [OPERATORS[spec.kind][0]]: value };
}

const nameOf = (prefix: string | null, key: string) => (prefix === null ? key : `${prefix}[${key}]`);

/** A condition key as it may appear in an error (a client can send anything). */
const shown = (key: string) => (key.length > 100 ? `${key.slice(0, 100)}…` : key);

/**
 * The `custom_label_<id>` keys of `conditions`, in the order given: a key starting `custom_label_`
 * that is not one (`custom_label_x`) is refused naming it, and so is one too many.
 */
function customLabelKeys(conditions: Record<string, unknown>, prefix: string | null): string[] {
  const keys: string[] = [];
  for (const key of Object.keys(conditions)) {
    if (!key.startsWith('custom_label_')) continue;
    if (!CUSTOM_LABEL_KEY.test(key)) throw new V3InputError(nameOf(prefix, shown(key)), 'is not a custom field condition: name it custom_label_<id>');
    if (keys.length >= MAX_CUSTOM_LABEL_CONDITIONS)
      throw new V3InputError(nameOf(prefix, key), `is one custom field condition too many (at most ${MAX_CUSTOM_LABEL_CONDITIONS})`);
    keys.push(key);
  }
  return keys;
}

/** The conditions present, read and checked, each with its spec (in table order; custom fields in the order given). */
function readConditions(conditions: unknown, table: ConditionTable, tz: string, options: ConditionOptions): Array<readonly [ConditionSpec, unknown]> {
  const read: Array<readonly [ConditionSpec, unknown]> = [];
  if (!isObject(conditions)) return read;
  const prefix = options.prefix === undefined ? 'conditions' : options.prefix;
  for (const key of Object.keys(table)) {
    const spec = table[key];
    if (spec.kind === 'customLabel') {
      for (const label of customLabelKeys(conditions, prefix)) {
        const value = translate(spec, conditions[label], nameOf(prefix, label), tz, label);
        if (value !== undefined) read.push([spec, value]);
      }
      continue;
    }
    if (!has(conditions, key)) continue;
    const value = translate(spec, conditions[key], nameOf(prefix, key), tz, key);
    if (value !== undefined) read.push([spec, value]);
  }
  return read;
}

/**
 * `conditions[...]` to the values they feed, keyed by filter field, driven by the route's table
 * (whitelist: keys not in the table are ignored, as the v3 service did). Blank values are skipped,
 * so a client's empty search form filters nothing. Errors name `conditions[x]` (or
 * `conditions[x][from_date]`). Like/prefix text is passed raw: escaping `%`/`_` is the core's job.
 */
export function parseConditions(conditions: unknown, table: ConditionTable, tz: string, options: ConditionOptions = {}): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [spec, value] of readConditions(conditions, table, tz, options)) {
    if (spec.kind === 'customLabel') ((filter[spec.to] ??= []) as unknown[]).push(value);
    else filter[spec.to] = value;
  }
  return filter;
}

/**
 * The GraphQL filter for `conditions[...]`: each value under the operator its kind implies
 * (`{ workCity: { contains: "ber" } }`). Two conditions on the same field (`person_name` and
 * `person_full_name` both read the name) must both hold: the second goes under `and`.
 */
export function conditionFilter(conditions: unknown, table: ConditionTable, tz: string, options: ConditionOptions = {}): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const also: Array<Record<string, unknown>> = [];
  for (const [spec, value] of readConditions(conditions, table, tz, options)) {
    const condition = asOperators(spec, value);
    // Custom field conditions all go into the filter's one list (each must hold).
    if (spec.kind === 'customLabel') {
      ((filter[spec.to] ??= []) as unknown[]).push(condition);
      continue;
    }
    // A dotted target is a condition on related records (`people.some.name`): each its own
    // entry under `and`, so each v3 condition is met by some related record.
    if (spec.to.includes('.'))
      also.push(spec.to.split('.').reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), condition as Record<string, unknown>));
    else if (spec.to in filter) also.push({ [spec.to]: condition });
    else filter[spec.to] = condition;
  }
  if (also.length > 0) filter.and = also;
  return filter;
}

/** At most this many conditions in a saved search's query. */
export const MAX_STORED_CONDITIONS = 50;

/** Kinds whose condition takes several values (ids; custom field values). */
const LIST_KINDS: ReadonlySet<ConditionKind> = new Set(['ids', 'customLabel']);
/** Kinds whose condition is a range object (`{from_date, to_date}`, `{from, to}`). */
const RANGE_KINDS: ReadonlySet<ConditionKind> = new Set(['datetimeRange', 'dateRange', 'numberRange']);

/** The spec of a condition name in `table`, custom fields included; null for an unknown name. */
export function conditionSpecOf(table: ConditionTable, name: string): ConditionSpec | null {
  if (name.startsWith('custom_label_')) return Object.values(table).find((s) => s.kind === 'customLabel') ?? null;
  return has(table, name) && table[name].kind !== 'customLabel' ? table[name] : null;
}

/**
 * A saved search's query (DECISIONS: Admin surface: saved searches: "`query` maps v3 condition
 * names to arrays of values", e.g. `{"company_owner": [684638], "company_name": ["Acme"]}`) as
 * `conditions[...]` would arrive, for `conditionFilter` with the same table: a list condition (ids,
 * custom field values) takes the array; a range its one object (`[{"from_date": "2014-01-01"}]`);
 * any other condition its one value. A bare value is read as a one-element array. An unknown name,
 * a second value where one is taken, or a query that is not such an object is refused naming it
 * (`query[deal_name]`); the values themselves are checked by `conditionFilter`.
 */
export function storedConditions(
  query: unknown,
  table: ConditionTable,
  options: { readonly prefix?: string; readonly what?: string } = {},
): Record<string, unknown> {
  const prefix = options.prefix ?? 'query';
  if (query === null || query === undefined) return {};
  if (!isObject(query)) throw new V3InputError(prefix, 'must be an object of condition names, each with a list of values');
  const names = Object.keys(query);
  if (names.length > MAX_STORED_CONDITIONS) throw new V3InputError(prefix, `has too many conditions (maximum is ${MAX_STORED_CONDITIONS})`);
  const conditions: Record<string, unknown> = {};
  for (const name of names) {
    const field = nameOf(prefix, shown(name));
    const spec = conditionSpecOf(table, name);
    if (!spec) throw new V3InputError(field, `is not a condition of ${options.what ?? 'this list'}`);
    const raw = query[name];
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length === 0) continue;
    if (LIST_KINDS.has(spec.kind)) {
      // One value as `conditions[x]=v` sends it: a comma-separated list, `all` (deal_owner), a custom field range object.
      conditions[name] = values.length === 1 ? values[0] : values;
      continue;
    }
    if (values.length > 1) throw new V3InputError(field, `takes one ${RANGE_KINDS.has(spec.kind) ? 'range' : 'value'}, not ${values.length}`);
    conditions[name] = values[0];
  }
  return conditions;
}

/** A saved search's query as stored: every condition's values as an array (a bare value becomes a one-element array). */
export function canonicalQuery(query: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [name, value] of Object.entries(query ?? {})) out[name] = Array.isArray(value) ? value : [value];
  return out;
}

/**
 * The custom field condition a GraphQL argument path points into (`filter.and[1].customFields[0].range.from`
 * in `{filter: ...}` → its `custom_label_<id>`), or null: how an error the core raises inside a
 * translated filter is named by the v3 condition it came from.
 */
export function customLabelAt(root: unknown, path: string): string | null {
  let node: unknown = root;
  let found: string | null = null;
  for (const step of path.match(/[^.[\]]+/g) ?? []) {
    if (node === null || typeof node !== 'object') break;
    node = has(node, step) ? (node as Record<string, unknown>)[step] : undefined;
    if (isObject(node) && typeof node.label === 'string' && CUSTOM_LABEL_KEY.test(node.label)) found = node.label;
  }
  return found;
}
