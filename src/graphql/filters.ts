import { Extensions, Field, Float, InputType, Int } from 'type-graphql';
import { BadInputError } from '../common/errors';
import { contains, startsWith, withoutNul } from '../db/sql';
import { dateProblem, instantProblem } from '../common/dates';
import { isValidId } from './ids';

/**
 * Operator inputs, one per kind of value, and the one compiler that turns a resource's filter
 * (its fields plus `and`, `or`, `not`) into a parameterised SQL condition. A resource declares
 * which SQL expression each filter field reads; nothing else is resource-specific.
 */

export const MAX_IN_VALUES = 500;
export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_CONDITIONS = 100;

@InputType('StringFilter', {
  description:
    'Conditions on a text field, all of which must hold. `eq` and `in` compare exactly (case-sensitive); `contains` and `startsWith` ignore case. ' +
    'Text conditions are at most 200 characters.',
})
export class StringFilter {
  @Field(() => String, { nullable: true, description: 'Equal to this text, exactly.' }) eq?: string | null;
  @Field(() => [String], { nullable: true, description: `Equal to one of these (exactly), at most ${MAX_IN_VALUES}.` }) in?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Contains this text anywhere, ignoring case.' }) contains?: string | null;
  @Field(() => String, { nullable: true, description: 'Starts with this text, ignoring case.' }) startsWith?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true: the field is empty (null); false: it has a value.' }) isNull?: boolean | null;
}

@InputType('IntFilter', { description: 'Conditions on a whole number, all of which must hold.' })
export class IntFilter {
  @Field(() => Int, { nullable: true, description: 'Equal to.' }) eq?: number | null;
  @Field(() => Int, { nullable: true, description: 'Greater than.' }) gt?: number | null;
  @Field(() => Int, { nullable: true, description: 'Greater than or equal to.' }) gte?: number | null;
  @Field(() => Int, { nullable: true, description: 'Less than.' }) lt?: number | null;
  @Field(() => Int, { nullable: true, description: 'Less than or equal to.' }) lte?: number | null;
  @Field(() => [Int], { nullable: true, description: `One of these, at most ${MAX_IN_VALUES}.` }) in?: number[] | null;
  @Field(() => Boolean, { nullable: true, description: 'true: no value (null); false: a value.' }) isNull?: boolean | null;
}

@InputType('FloatFilter', { description: 'Conditions on a number, all of which must hold.' })
export class FloatFilter {
  @Field(() => Float, { nullable: true, description: 'Equal to.' }) eq?: number | null;
  @Field(() => Float, { nullable: true, description: 'Greater than.' }) gt?: number | null;
  @Field(() => Float, { nullable: true, description: 'Greater than or equal to.' }) gte?: number | null;
  @Field(() => Float, { nullable: true, description: 'Less than.' }) lt?: number | null;
  @Field(() => Float, { nullable: true, description: 'Less than or equal to.' }) lte?: number | null;
  @Field(() => [Float], { nullable: true, description: `One of these, at most ${MAX_IN_VALUES}.` }) in?: number[] | null;
  @Field(() => Boolean, { nullable: true, description: 'true: no value (null); false: a value.' }) isNull?: boolean | null;
}

@InputType('DateTimeFilter', {
  description: 'Conditions on an instant (ISO 8601 with a zone, e.g. 2026-01-31T09:00:00Z), all of which must hold. Years 1 to 9999.',
})
export class DateTimeFilter {
  @Field(() => Date, { nullable: true, description: 'At exactly this instant.' }) eq?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Later than.' }) gt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'At or later than.' }) gte?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Earlier than.' }) lt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'At or earlier than.' }) lte?: Date | null;
  @Field(() => [Date], { nullable: true, description: `One of these instants, at most ${MAX_IN_VALUES}.` }) in?: Date[] | null;
  @Field(() => Boolean, { nullable: true, description: 'true: no value (null); false: a value.' }) isNull?: boolean | null;
}

@InputType('IdFilter', { description: 'Conditions on a reference to another record, by its `databaseId`.' })
export class IdFilter {
  @Field(() => Int, { nullable: true, description: 'The record with this databaseId.' }) eq?: number | null;
  @Field(() => [Int], { nullable: true, description: `One of these databaseIds, at most ${MAX_IN_VALUES}.` }) in?: number[] | null;
  @Field(() => Boolean, { nullable: true, description: 'true: no record is referenced (null); false: one is.' }) isNull?: boolean | null;
}

@InputType('BooleanFilter', { description: 'A condition on a yes/no field.' })
export class BooleanFilter {
  @Field(() => Boolean, { nullable: true, description: 'Equal to.' }) eq?: boolean | null;
}

/** `{eq, in}` for an enum: `@InputType('PersonTypeFilter') class PersonTypeFilter extends EnumFilterOf(PersonType, 'person type') {}`. */
export function EnumFilterOf<E extends object>(enumType: E, what: string) {
  @InputType()
  abstract class EnumFilter {
    @Field(() => enumType, { nullable: true, description: `This ${what}.` }) eq?: E[keyof E] | null;
    @Field(() => [enumType], { nullable: true, description: `One of these ${what}s.` }) in?: Array<E[keyof E]> | null;
  }
  return EnumFilter;
}

/** Conditions shared by every resource's filter: composition. */
export interface Composable<F> {
  and?: F[] | null;
  or?: F[] | null;
  not?: F | null;
}

/** How one filter field reaches SQL. */
export type FilterField =
  /**
   * Text; a list of expressions matches when any of them does. `containsSql` (an indexed
   * expression) serves `contains`, `startsWithSql` (a lower-cased indexed prefix) `startsWith`.
   */
  | { readonly kind: 'string'; readonly sql: string | readonly string[]; readonly containsSql?: string; readonly startsWithSql?: string }
  | { readonly kind: 'number' | 'datetime' | 'date' | 'enum' | 'boolean'; readonly sql: string }
  | { readonly kind: 'id'; readonly sql: string }
  /** A membership test on a jsonb array of ids (e.g. tags). */
  | { readonly kind: 'idArray'; readonly sql: string }
  /** Resource-specific: returns a condition and its parameters, or null for no condition. */
  | { readonly kind: 'custom'; readonly build: (value: never, path: string) => { sql: string; params: unknown[] } | null };

export type FilterFields<F> = { readonly [K in Exclude<keyof F, 'and' | 'or' | 'not'>]-?: FilterField };

interface Fragment {
  sql: string;
  params: unknown[];
}

const TRUE: Fragment = { sql: 'true', params: [] };

function and(parts: Fragment[]): Fragment {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0];
  return { sql: parts.map((p) => `(${p.sql})`).join(' and '), params: parts.flatMap((p) => p.params) };
}

function or(parts: Fragment[]): Fragment {
  if (parts.length === 1) return parts[0];
  return { sql: parts.map((p) => `(${p.sql})`).join(' or '), params: parts.flatMap((p) => p.params) };
}

/** Counts conditions as the compiler meets them: a filter is bounded in depth and size. */
class Budget {
  used = 0;
  spend(path: string): void {
    if (++this.used > MAX_FILTER_CONDITIONS) throw new BadInputError(path, `a filter may hold at most ${MAX_FILTER_CONDITIONS} conditions`);
  }
}

function list<T>(values: readonly T[], path: string): readonly T[] {
  if (values.length > MAX_IN_VALUES) throw new BadInputError(path, `at most ${MAX_IN_VALUES} values, got ${values.length}`);
  return values;
}

/**
 * `sql` equals one of `values`: sent as one JSON parameter (knex would expand a JS array into a
 * list of parameters, and the statement text should not depend on the count).
 */
function oneOf(sql: string, values: readonly unknown[], type: string): Fragment {
  if (values.length === 0) return { sql: 'false', params: [] };
  return { sql: `${sql} in (select (jsonb_array_elements_text(?::jsonb))::${type})`, params: [JSON.stringify(values)] };
}

function text(value: string): string {
  return withoutNul(value);
}

/**
 * A GraphQL instant input (DateTimeISO) checked by the one date range (src/common/dates.ts): years 1
 * to 9999 in UTC and, when the value is read in a zone (the viewer's day, a window), in that zone
 * too. Throws BAD_USER_INPUT naming `path` (e.g. `filter.within.from`).
 */
export function boundedInstant(value: unknown, path: string, timeZone?: string | null): Date {
  const problem = value instanceof Date ? instantProblem(value, timeZone) : 'is not a valid datetime';
  if (problem) throw new BadInputError(path, problem);
  return value as Date;
}

/** A calendar date `YYYY-MM-DD` that exists, in years 1 to 9999 (src/common/dates.ts); BAD_USER_INPUT naming `path` otherwise. */
export function boundedDate(value: unknown, path: string): string {
  const problem = dateProblem(value);
  if (problem) throw new BadInputError(path, problem);
  return value as string;
}

function isNullCondition(sqls: readonly string[], isNull: boolean): Fragment {
  return isNull ? { sql: sqls.map((s) => `${s} is null`).join(' and '), params: [] } : { sql: sqls.map((s) => `${s} is not null`).join(' or '), params: [] };
}

function stringConditions(field: Extract<FilterField, { kind: 'string' }>, f: StringFilter, path: string, budget: Budget): Fragment[] {
  const sqls = typeof field.sql === 'string' ? [field.sql] : field.sql;
  const anyOf = (build: (sql: string) => Fragment) => or(sqls.map(build));
  const out: Fragment[] = [];
  if (f.eq != null) out.push(anyOf((s) => ({ sql: `${s} = ?`, params: [text(f.eq!)] })));
  if (f.in != null) {
    const values = list(f.in, `${path}.in`).map(text);
    out.push(values.length === 0 ? { sql: 'false', params: [] } : anyOf((s) => oneOf(s, values, 'text')));
  }
  if (f.contains != null) {
    const pattern = contains(text(f.contains));
    out.push(field.containsSql ? { sql: `${field.containsSql} ilike ?`, params: [pattern] } : anyOf((s) => ({ sql: `${s} ilike ?`, params: [pattern] })));
  }
  if (f.startsWith != null) {
    const pattern = startsWith(text(f.startsWith));
    out.push(
      field.startsWithSql ? { sql: `${field.startsWithSql} like ?`, params: [pattern] } : anyOf((s) => ({ sql: `lower(${s}) like ?`, params: [pattern] })),
    );
  }
  if (f.isNull != null) out.push(isNullCondition(sqls, f.isNull));
  out.forEach(() => budget.spend(path));
  return out;
}

type Comparable = { eq?: unknown; gt?: unknown; gte?: unknown; lt?: unknown; lte?: unknown; in?: unknown[] | null; isNull?: boolean | null };
const OPERATORS = [
  ['eq', '='],
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

function comparableConditions(
  sql: string,
  f: Comparable,
  path: string,
  budget: Budget,
  check: (v: unknown, path: string) => unknown,
  arrayType: string,
): Fragment[] {
  const out: Fragment[] = [];
  for (const [op, symbol] of OPERATORS) {
    const value = f[op];
    if (value != null) out.push({ sql: `${sql} ${symbol} ?`, params: [check(value, `${path}.${op}`)] });
  }
  if (f.in != null) {
    const values = list(f.in, `${path}.in`).map((v) => check(v, `${path}.in`));
    out.push(oneOf(sql, values, arrayType));
  }
  if (f.isNull != null) out.push(isNullCondition([sql], f.isNull));
  out.forEach(() => budget.spend(path));
  return out;
}

function idConditions(field: Extract<FilterField, { kind: 'id' | 'idArray' }>, f: IdFilter, path: string, budget: Budget): Fragment[] {
  const out: Fragment[] = [];
  const ids = (values: readonly number[]) => values.filter(isValidId);
  if (field.kind === 'idArray') {
    if (f.eq != null) out.push(isValidId(f.eq) ? { sql: `${field.sql} @> ?::jsonb`, params: [JSON.stringify([f.eq])] } : { sql: 'false', params: [] });
    if (f.in != null) {
      const wanted = ids(list(f.in, `${path}.in`));
      // One containment test per id: each can use the jsonb GIN index.
      out.push(
        wanted.length === 0 ? { sql: 'false', params: [] } : or(wanted.map((id) => ({ sql: `${field.sql} @> ?::jsonb`, params: [JSON.stringify([id])] }))),
      );
    }
    if (f.isNull != null) out.push({ sql: f.isNull ? `jsonb_array_length(${field.sql}) = 0` : `jsonb_array_length(${field.sql}) > 0`, params: [] });
  } else {
    // An id outside the integer range can match nothing: it is dropped, not an error.
    if (f.eq != null) out.push(isValidId(f.eq) ? { sql: `${field.sql} = ?`, params: [f.eq] } : { sql: 'false', params: [] });
    if (f.in != null) {
      const wanted = ids(list(f.in, `${path}.in`));
      // One id is `=`: `= any(array)` keeps an index from returning rows in the list's order.
      out.push(
        wanted.length === 0
          ? { sql: 'false', params: [] }
          : wanted.length === 1
            ? { sql: `${field.sql} = ?`, params: [wanted[0]] }
            : { sql: `${field.sql} = any(?::int[])`, params: [`{${wanted.join(',')}}`] },
      );
    }
    if (f.isNull != null) out.push(isNullCondition([field.sql], f.isNull));
  }
  out.forEach(() => budget.spend(path));
  return out;
}

/**
 * A filter field whose condition reads related records (a deal's people) is marked with the
 * records' GraphQL type in its schema extensions: written by the field kit for the related-records
 * helpers (src/modules/common/related-filters.ts), read by the cost model (the condition runs per
 * related row) and by the relation-filter probe (test/contract/relation-filters.test.ts).
 */
export const markRelatedRecords = (type: string): PropertyDecorator => Extensions({ relatedRecords: type }) as PropertyDecorator;

/** The related records' type of a filter field (see markRelatedRecords); undefined for a condition on the record's own row. */
export const relatedRecordsOf = (field: { readonly extensions?: unknown }): string | undefined =>
  (field.extensions as { relatedRecords?: string } | null | undefined)?.relatedRecords;

/** A join table seen from one side: `on` ties its row to the filtered record, `column` holds the other side's id. */
export interface LinkTable {
  readonly table: string;
  /** e.g. `dp.deal_id = d.id` (the join table aliased as in `alias`). */
  readonly on: string;
  readonly alias: string;
  /** e.g. `dp.person_id`. */
  readonly column: string;
  /**
   * Only links to these rows count: the records on the other side joined (`join "people" p on
   * p.id = dp.person_id`) and the condition they must meet (the viewer's scope of them). Absent:
   * every link counts.
   */
  readonly rows?: { readonly join: string; readonly sql: string; readonly params: readonly unknown[] };
}

/**
 * An IdFilter on records linked through a join table (a deal's people, a person's deals): `eq`/`in`
 * linked to any of these ids, `isNull: true` linked to none. Null when the filter is empty.
 */
export function linkedIdConditions(link: LinkTable, value: IdFilter, path: string): Fragment | null {
  const parts: Fragment[] = [];
  const rows = link.rows;
  const from = rows ? `"${link.table}" ${link.alias} ${rows.join} where ${link.on} and (${rows.sql})` : `"${link.table}" ${link.alias} where ${link.on}`;
  const rowParams = rows ? [...rows.params] : [];
  if (value.eq != null || value.in != null) {
    const ids = [...(value.eq != null ? [value.eq] : []), ...list(value.in ?? [], `${path}.in`)].filter(isValidId);
    parts.push(
      ids.length === 0
        ? { sql: 'false', params: [] }
        : { sql: `exists (select 1 from ${from} and ${link.column} = any(?::int[]))`, params: [...rowParams, `{${ids.join(',')}}`] },
    );
  }
  if (value.isNull != null) parts.push({ sql: `${value.isNull ? 'not ' : ''}exists (select 1 from ${from})`, params: rowParams });
  return parts.length ? and(parts) : null;
}

function compile<F extends Composable<F>>(filter: F, fields: FilterFields<F>, path: string, depth: number, budget: Budget): Fragment {
  if (depth > MAX_FILTER_DEPTH) throw new BadInputError(path, `and/or/not may nest at most ${MAX_FILTER_DEPTH} levels`);
  const parts: Fragment[] = [];
  for (const [name, value] of Object.entries(filter) as Array<[string, unknown]>) {
    if (value == null) continue;
    const at = `${path}.${name}`;
    if (name === 'and' || name === 'or') {
      const children = list(value as F[], at).map((child, i) => compile(child, fields, `${at}[${i}]`, depth + 1, budget));
      if (children.length > 0) parts.push(name === 'and' ? and(children) : or(children));
      else if (name === 'or') parts.push({ sql: 'false', params: [] }); // none of nothing holds
      continue;
    }
    if (name === 'not') {
      const inner = compile(value as F, fields, at, depth + 1, budget);
      // A condition on an empty field is unknown (null) in SQL; `not` treats it as not matching.
      parts.push({ sql: `not coalesce((${inner.sql}), false)`, params: inner.params });
      continue;
    }
    const field = (fields as Record<string, FilterField | undefined>)[name];
    if (!field) throw new BadInputError(at, 'is not a filter field');
    switch (field.kind) {
      case 'string':
        parts.push(...stringConditions(field, value as StringFilter, at, budget));
        break;
      case 'number':
        parts.push(...comparableConditions(field.sql, value as Comparable, at, budget, (v) => v, 'numeric'));
        break;
      case 'datetime':
        parts.push(...comparableConditions(field.sql, value as Comparable, at, budget, (v, p) => boundedInstant(v, p), 'timestamptz'));
        break;
      case 'date':
        parts.push(...comparableConditions(field.sql, value as Comparable, at, budget, boundedDate, 'date'));
        break;
      case 'enum':
        parts.push(...comparableConditions(field.sql, { eq: (value as Comparable).eq, in: (value as Comparable).in }, at, budget, (v) => v, 'text'));
        break;
      case 'boolean':
        parts.push(...comparableConditions(field.sql, { eq: (value as Comparable).eq }, at, budget, (v) => v, 'boolean'));
        break;
      case 'id':
      case 'idArray':
        parts.push(...idConditions(field, value as IdFilter, at, budget));
        break;
      case 'custom': {
        budget.spend(at);
        const built = field.build(value as never, at);
        if (built) parts.push(built);
        break;
      }
    }
  }
  return and(parts);
}

/**
 * The SQL condition of a filter (with `?` parameters), `true` when it has no conditions. Errors
 * (a value out of range, too many conditions, nesting too deep) name the argument path, e.g.
 * `filter.or[1].createdAt.gte`.
 */
export function compileFilter<F extends Composable<F>>(
  filter: F | null | undefined,
  fields: FilterFields<F>,
  argument = 'filter',
): { sql: string; params: unknown[] } {
  if (!filter) return TRUE;
  return compile(filter, fields, argument, 0, new Budget());
}

@InputType('DateFilter', { description: 'Conditions on a calendar date (YYYY-MM-DD), all of which must hold. Years 1 to 9999.' })
export class DateFilter {
  @Field(() => String, { nullable: true, description: 'On this date.' }) eq?: string | null;
  @Field(() => String, { nullable: true, description: 'After this date.' }) gt?: string | null;
  @Field(() => String, { nullable: true, description: 'On or after this date.' }) gte?: string | null;
  @Field(() => String, { nullable: true, description: 'Before this date.' }) lt?: string | null;
  @Field(() => String, { nullable: true, description: 'On or before this date.' }) lte?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true: no date; false: a date.' }) isNull?: boolean | null;
}

/** At most this many values in a custom field's `matches` (what the v3 facade allows for one condition). */
export const MAX_CUSTOM_FIELD_MATCHES = 100;

@InputType('CustomFieldRange', {
  description:
    'An inclusive range on a numeric, currency or date custom field; give `from`, `to` or both. Numbers as decimal strings (e.g. "10.5"), dates as YYYY-MM-DD. ' +
    'A bound that is not a number (numeric and currency fields) or a date (date fields) is refused.',
})
export class CustomFieldRange {
  @Field(() => String, { nullable: true, description: 'The lowest value that matches (inclusive): a decimal string, or YYYY-MM-DD for a date field.' }) from?:
    string | null;
  @Field(() => String, { nullable: true, description: 'The highest value that matches (inclusive): a decimal string, or YYYY-MM-DD for a date field.' }) to?:
    string | null;
}

@InputType('CustomFieldFilter', {
  description:
    "A condition on one custom field, named by its label key (`custom_label_<id>`, as in `customFields`). `range` and `matches` work on every kind (the field's own kind decides how, as v3 conditions do); " +
    "or give the operator group of the field's kind: `text`, `number`, `date` or `choice` (dropdown and multi-select entries). A record without a value for the field matches only `isNull: true`.",
})
export class CustomFieldFilter {
  @Field({ description: "The field's key, `custom_label_<id>`." }) label!: string;
  @Field(() => CustomFieldRange, {
    nullable: true,
    description: 'Numeric, currency and date fields: values from `from` to `to`, inclusive (either alone). Refused on other kinds.',
  })
  range?: CustomFieldRange | null;
  @Field(() => [String], {
    nullable: true,
    description:
      `Any of these values, at most ${MAX_CUSTOM_FIELD_MATCHES} (an empty list matches none). Text fields: contains the text, ignoring case; dropdown and multi-select fields: entry ids (any chosen entry); ` +
      'boolean fields: "true" or "false"; numeric and currency fields: equal numbers; date fields: these dates (YYYY-MM-DD).',
  })
  matches?: string[] | null;
  @Field(() => StringFilter, { nullable: true, description: 'For text fields.' }) text?: StringFilter | null;
  @Field(() => FloatFilter, { nullable: true, description: 'For number fields.' }) number?: FloatFilter | null;
  @Field(() => DateFilter, { nullable: true, description: 'For date fields.' }) date?: DateFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'For dropdown fields (the chosen entry) and multi-select fields (any chosen entry), by entry id.' })
  choice?: IdFilter | null;
}

const LABEL = /^custom_label_[1-9][0-9]{0,9}$/;

/**
 * `range` and `matches` of one custom field condition: they depend on the field's kind, which the
 * resource resolves (src/modules/custom-field-search): conditions, or null for none.
 */
export type CustomFieldSearch = (filter: CustomFieldFilter, path: string) => { sql: string; params: unknown[] } | null;

/**
 * Conditions of `customFields: [CustomFieldFilter!]` on a jsonb column keyed by label; `search`
 * builds `range` and `matches`, which need the field's kind.
 */
export function customFieldConditions(
  column: string,
  filters: readonly CustomFieldFilter[],
  path: string,
  search?: CustomFieldSearch,
): { sql: string; params: unknown[] } | null {
  const parts: Fragment[] = [];
  const budget = new Budget();
  list(filters, path).forEach((f, i) => {
    const at = `${path}[${i}]`;
    if (!LABEL.test(f.label)) throw new BadInputError(`${at}.label`, 'must be a custom field key like custom_label_12');
    if (f.range != null || f.matches != null) {
      if (!search) throw new Error(`${at}: range and matches need the resource's custom field search`);
      budget.spend(at);
      const built = search(f, at);
      if (built) parts.push(built);
    }
    // The key is checked above, so it can be part of the statement; values stay parameters.
    const value = `${column}->'${f.label}'`;
    const asText = `(case when jsonb_typeof(${value}) = 'string' then ${column}->>'${f.label}' end)`;
    const asNumber = `(case when jsonb_typeof(${value}) = 'number' then (${column}->>'${f.label}')::numeric end)`;
    const asDate = `(case when jsonb_typeof(${value}) = 'string' and (${column}->>'${f.label}') ~ '^\\d{4}-\\d{2}-\\d{2}$' then ${column}->>'${f.label}' end)`;
    if (f.text) parts.push(...stringConditions({ kind: 'string', sql: asText }, f.text, `${at}.text`, budget));
    if (f.number) parts.push(...comparableConditions(asNumber, f.number, `${at}.number`, budget, (v) => v, 'numeric'));
    // Compared as text, so any date would run; checked as every date input is, for one answer everywhere.
    if (f.date) parts.push(...comparableConditions(asDate, f.date, `${at}.date`, budget, boundedDate, 'text'));
    if (f.choice) {
      // A dropdown holds one entry id, a multi-select an array of them: normalised to an array.
      const entries = `(case jsonb_typeof(${value}) when 'array' then ${value} when 'number' then jsonb_build_array(${value}) else '[]'::jsonb end)`;
      parts.push(...idConditions({ kind: 'idArray', sql: entries }, f.choice, `${at}.choice`, budget));
    }
  });
  return parts.length ? and(parts) : null;
}
