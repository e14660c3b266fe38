import { FacadeInputError } from '../errors/facade-error';
import { toBoolean, toDate, toDateTime, toDateTimeBound, toId, toIdList, toInteger, toText } from './coerce';

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
  | 'datetime';

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

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isBlank = (v: unknown) => v === undefined || v === null || v === '';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function datetimeRange(value: unknown, name: string, tz: string): { from?: string; to?: string } | undefined {
  // DECISIONS: "Datetime ranges: conditions[X][from_date] and/or conditions[X][to_date] (either alone)".
  if (!isObject(value)) throw new FacadeInputError(name, 'must be a range given as from_date and/or to_date');
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
  throw new FacadeInputError(name, 'must be a number');
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
  throw new FacadeInputError(name, `must be one of: ${accepted.join(', ')}`);
}

/** v3 §4.1: "any value, treated as true"; an explicit false/0 is read as absent. */
function flag(value: unknown): true | undefined {
  if (value === false || value === 0) return undefined;
  if (typeof value === 'string' && ['false', '0'].includes(value.trim().toLowerCase())) return undefined;
  return true;
}

/** A date range (`[from_date]`/`[to_date]`) on a calendar-date field: each bound as its date, `YYYY-MM-DD`. */
function dateRange(value: unknown, name: string, tz: string): { from?: string; to?: string } | undefined {
  if (!isObject(value)) throw new FacadeInputError(name, 'must be a range given as from_date and/or to_date');
  const from = has(value, 'from_date') ? toDate(value.from_date, `${name}[from_date]`, tz) : null;
  const to = has(value, 'to_date') ? toDate(value.to_date, `${name}[to_date]`, tz) : null;
  if (from === null && to === null) return undefined;
  return { ...(from !== null ? { from } : {}), ...(to !== null ? { to } : {}) };
}

function translate(spec: ConditionSpec, value: unknown, name: string, tz: string): unknown {
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
      if (text.length > MAX_CONDITION_TEXT && [...text].length > MAX_CONDITION_TEXT) throw new FacadeInputError(name, `is too long (maximum is ${MAX_CONDITION_TEXT} characters)`);
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
      return flag(value);
    case 'enum':
      return enumValue(value, name, spec);
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
};

function asOperators(spec: ConditionSpec, value: unknown): unknown {
  if (spec.raw || spec.kind === 'flag') return value;
  if (spec.kind === 'datetimeRange' || spec.kind === 'dateRange' || spec.kind === 'numberRange') {
    const range = value as { from?: unknown; to?: unknown };
    return { ...(range.from !== undefined ? { gte: range.from } : {}), ...(range.to !== undefined ? { lte: range.to } : {}) };
  }
  return { [OPERATORS[spec.kind][0]]: value };
}

/** The conditions present, read and checked, each with its spec (in table order). */
function readConditions(conditions: unknown, table: ConditionTable, tz: string, options: ConditionOptions): Array<readonly [ConditionSpec, unknown]> {
  const read: Array<readonly [ConditionSpec, unknown]> = [];
  if (!isObject(conditions)) return read;
  const prefix = options.prefix === undefined ? 'conditions' : options.prefix;
  for (const key of Object.keys(table)) {
    if (!has(conditions, key)) continue;
    const spec = table[key];
    const value = translate(spec, conditions[key], prefix === null ? key : `${prefix}[${key}]`, tz);
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
  for (const [spec, value] of readConditions(conditions, table, tz, options)) filter[spec.to] = value;
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
    // A dotted target is a condition on related records (`people.some.name`): each its own
    // entry under `and`, so each v3 condition is met by some related record.
    if (spec.to.includes('.')) also.push(spec.to.split('.').reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), condition as Record<string, unknown>));
    else if (spec.to in filter) also.push({ [spec.to]: condition });
    else filter[spec.to] = condition;
  }
  if (also.length > 0) filter.and = also;
  return filter;
}
