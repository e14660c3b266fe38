import DataLoader from 'dataloader';
import { BadInputError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { contains, withoutNul } from '../../db/sql';
import { customFieldConditions, MAX_CUSTOM_FIELD_MATCHES, type CustomFieldFilter } from '../../graphql/filters';
import { isValidId } from '../../graphql/ids';
import { MAX_FILTER_STRING } from '../../graphql/limits';
import { dateProblem } from '../../common/dates';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';

/**
 * `range` and `matches` of a custom field condition (`CustomFieldFilter`, the v3
 * `conditions[custom_label_N]`): what they mean depends on the field's kind, so the definitions
 * are loaded before the filter is compiled (`prepareCustomFieldSearch`, async, called by each
 * service before it compiles a filter), and the compiler (synchronous) reads what was prepared.
 *
 * Numeric, currency and date ranges and entry/number/date lists are answered from
 * `custom_field_search_values` (one index range per condition, see its entity); text and boolean
 * values from the record's JSON (a substring match scans anyway).
 *
 * Two shapes of SQL, chosen per condition from how many values it matches (counted, bounded, when
 * prepared): up to MATCH_LIST_MAX, `id = any(array(<matching record ids>))`, which PostgreSQL
 * answers with the primary key for each match, whatever the list's order (it takes the array for
 * a small one); beyond that, `exists (<this record's value matches>)`, which lets it walk the
 * list in its order and stop after a page instead of reading every match. On 1M deals a 1%
 * range (10,000 deals) took 25–50 ms as `exists` (the planner walked 40,000 deals in creation
 * order) and 10–30 ms as the list; a 50% one is instant as `exists` and would cost 500,000 lookups
 * as the list. No match at all is `false`.
 */

/** Conditions matching up to this many values are answered as a list of record ids (see above). */
export const MATCH_LIST_MAX = 20_000;

const TABLE = '"custom_field_search_values"';

/** How a field's values are searched, by its kind (`number`: the kind before `numeric` and `currency`). */
type Search = 'text' | 'number' | 'date' | 'entries' | 'boolean';

const SEARCH_OF_KIND: Readonly<Record<string, Search>> = {
  text: 'text',
  number: 'number',
  numeric: 'number',
  currency: 'number',
  date: 'date',
  dropdown: 'entries',
  multi_select: 'entries',
  boolean: 'boolean',
};

const PLURAL: Readonly<Record<CustomFieldResource, string>> = {
  [CustomFieldResource.DEAL]: 'deals',
  [CustomFieldResource.PERSON]: 'people',
  [CustomFieldResource.COMPANY]: 'companies',
};

/** The numbers a range or a list takes: decimal text, as v3 sends it (no exponent). */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const MAX_NUMBER_TEXT = 40;

/** What preparing found for one condition. */
interface Prepared {
  /** The field, or null when the account has no field of that key. */
  readonly field: { readonly id: number; readonly kind: string; readonly resource: CustomFieldResource } | null;
  /** Side-table conditions: how many values each matches (by its key), counted up to MATCH_LIST_MAX + 1. */
  readonly matching: ReadonlyMap<string, number>;
}

/** Conditions prepared for compiling, by the condition object (the compiler receives the same objects). */
const prepared = new WeakMap<object, Prepared>();

interface Fragment {
  sql: string;
  params: unknown[];
}

/** A side-table condition on `s.value` of one field, with a key naming it for the count's cache. */
interface ValueCondition extends Fragment {
  readonly key: string;
}

function number(value: unknown, path: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text.length > MAX_NUMBER_TEXT || !NUMBER.test(text)) throw new BadInputError(path, 'must be a number such as 10 or 2500.50');
  return text.replace(/^\+/, '');
}

/** A date `YYYY-MM-DD` that exists (years 1 to 9999: src/common/dates.ts), as the number the side table holds (YYYYMMDD). */
function dateKey(value: unknown, path: string): string {
  const text = typeof value === 'string' ? value.trim() : null;
  const problem = dateProblem(text);
  if (problem) throw new BadInputError(path, problem);
  return text!.replace(/-/g, '');
}

function matchesOf(filter: CustomFieldFilter, at: string): readonly string[] {
  const values = filter.matches ?? [];
  if (values.length > MAX_CUSTOM_FIELD_MATCHES) throw new BadInputError(`${at}.matches`, `at most ${MAX_CUSTOM_FIELD_MATCHES} values, got ${values.length}`);
  values.forEach((v, i) => {
    if (typeof v !== 'string') throw new BadInputError(`${at}.matches[${i}]`, 'must be text');
    if (v.length > MAX_FILTER_STRING && [...v].length > MAX_FILTER_STRING)
      throw new BadInputError(`${at}.matches[${i}]`, `is too long (at most ${MAX_FILTER_STRING} characters)`);
  });
  return values;
}

/**
 * The side-table conditions of a filter on a field searched as `search` (null: the range is empty).
 * Throws BadInputError naming the value that does not parse, or the condition the kind refuses.
 */
function valueConditions(
  filter: CustomFieldFilter,
  search: Search,
  fieldId: number,
  kind: string,
  at: string,
): { range: ValueCondition | null; matches: ValueCondition | null } {
  let range: ValueCondition | null = null;
  let matches: ValueCondition | null = null;
  if (filter.range != null) {
    if (search !== 'number' && search !== 'date')
      throw new BadInputError(`${at}.range`, `is for numeric, currency and date fields; ${filter.label} is a ${kind} field (give matches)`);
    const parse = search === 'number' ? number : dateKey;
    const from = filter.range.from == null ? null : parse(filter.range.from, `${at}.range.from`);
    const to = filter.range.to == null ? null : parse(filter.range.to, `${at}.range.to`);
    if (from !== null || to !== null) {
      const sql = [...(from !== null ? ['s.value >= ?::numeric'] : []), ...(to !== null ? ['s.value <= ?::numeric'] : [])].join(' and ');
      const params = [...(from !== null ? [from] : []), ...(to !== null ? [to] : [])];
      range = { sql, params, key: `${fieldId}:range:${from ?? ''}:${to ?? ''}` };
    }
  }
  if (filter.matches != null && (search === 'number' || search === 'date' || search === 'entries')) {
    const values = matchesOf(filter, at).map((v, i) => {
      const path = `${at}.matches[${i}]`;
      if (search === 'number') return number(v, path);
      if (search === 'date') return dateKey(v, path);
      const id = /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : NaN;
      if (!isValidId(id)) throw new BadInputError(path, `must be an entry id of ${filter.label} (a whole number)`);
      return String(id);
    });
    const unique = [...new Set(values)];
    matches = { sql: 's.value = any(?::numeric[])', params: [`{${unique.join(',')}}`], key: `${fieldId}:in:${unique.join(',')}` };
  }
  return { range, matches };
}

/** How many values a side-table condition matches, up to MATCH_LIST_MAX + 1: one statement per batch. */
function matchingCounts(ctx: RequestContext): DataLoader<ValueCondition & { field: number }, number, string> {
  return ctx.loaders.memo(
    'custom-field-search:counts',
    () =>
      new DataLoader<ValueCondition & { field: number }, number, string>(
        async (conditions) => {
          const columns = conditions.map(
            (c, i) =>
              `(select count(*) from (select 1 from ${TABLE} s where s.field_id = ${Math.trunc(c.field)} and ${c.sql} limit ${MATCH_LIST_MAX + 1}) x) as "c${i}"`,
          );
          const [row] = await ctx.em.execute<Array<Record<string, string>>>(
            `select ${columns.join(', ')}`,
            conditions.flatMap((c) => c.params),
            'all',
          );
          return conditions.map((_, i) => Number(row[`c${i}`]));
        },
        { cacheKeyFn: (c) => c.key },
      ),
  );
}

/** Every custom field condition of a filter that gives `range` or `matches`, at any depth (and/or/not, related records' filters). */
function searchConditions(filter: unknown): CustomFieldFilter[] {
  const found: CustomFieldFilter[] = [];
  const seen = new Set<object>();
  const walk = (value: unknown, depth: number) => {
    // Filters nest a bounded number of levels (MAX_FILTER_DEPTH, the input depth limit); the walk stops well past them.
    if (value === null || typeof value !== 'object' || depth > 64 || seen.has(value) || value instanceof Date) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((v) => walk(v, depth + 1));
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'customFields' && Array.isArray(child)) {
        for (const c of child as unknown[]) {
          const f = c as CustomFieldFilter | null;
          if (f && typeof f === 'object' && typeof f.label === 'string' && (f.range != null || f.matches != null) && !prepared.has(f)) found.push(f);
        }
      } else walk(child, depth + 1);
    }
  };
  walk(filter, 0);
  return found;
}

/**
 * Loads what the `range` and `matches` conditions anywhere in `filter` need to compile: each
 * field's definition (the resource's own first: nested filters of related records name theirs)
 * and, for conditions answered from the side table, how many values match. A value that does not
 * parse is left for the compiler, which names it. Call before compiling the filter (services do).
 */
export async function prepareCustomFieldSearch(ctx: RequestContext, resource: CustomFieldResource, filter: unknown): Promise<void> {
  const conditions = searchConditions(filter);
  if (conditions.length === 0) return;
  const fields = new Map<string, { id: number; kind: string; resource: CustomFieldResource }>();
  const load = async (r: CustomFieldResource) => {
    for (const def of await customFieldDefs(ctx, r).load()) fields.set(`custom_label_${def.id}`, { id: def.id, kind: String(def.kind), resource: r });
  };
  await load(resource);
  if (conditions.some((c) => !fields.has(c.label)))
    await Promise.all(
      Object.values(CustomFieldResource)
        .filter((r) => r !== resource)
        .map(load),
    );
  const counts = matchingCounts(ctx);
  await Promise.all(
    conditions.map(async (condition) => {
      const field = fields.get(condition.label) ?? null;
      const search = field && SEARCH_OF_KIND[field.kind];
      const matching = new Map<string, number>();
      if (field && search) {
        try {
          const { range, matches } = valueConditions(condition, search, field.id, field.kind, '');
          const sides = [range, matches].filter((c): c is ValueCondition => c !== null);
          const found = await Promise.all(sides.map((c) => counts.load({ ...c, field: field.id })));
          sides.forEach((c, i) => matching.set(c.key, found[i]));
        } catch (error) {
          if (!(error instanceof BadInputError)) throw error;
        }
      }
      prepared.set(condition, { field, matching });
    }),
  );
}

/**
 * A side-table condition as a condition on the record `${alias}.id`, in the shape its count
 * calls for (module comment). Given with a range, a list holds on its own rows (a multi-select's
 * chosen entries are several rows): one condition each.
 */
function onRecords(alias: string, fieldId: number, condition: ValueCondition, matching: number | undefined): Fragment {
  if (matching === 0) return { sql: 'false', params: [] };
  const where = `s.field_id = ${Math.trunc(fieldId)} and ${condition.sql}`;
  if (matching !== undefined && matching <= MATCH_LIST_MAX)
    return { sql: `${alias}.id = any(array(select s.record_id from ${TABLE} s where ${where}))`, params: condition.params };
  return { sql: `exists (select 1 from ${TABLE} s where s.record_id = ${alias}.id and ${where})`, params: condition.params };
}

/**
 * The compiler's side of `range` and `matches` for a resource's filter (records aliased `alias`,
 * their values in `${alias}.custom_fields`): `customFields: [CustomFieldFilter!]` of the field kit.
 */
export function customFieldFilter(resource: CustomFieldResource, alias: string) {
  const column = `${alias}.custom_fields`;
  const search = (filter: CustomFieldFilter, at: string): Fragment | null => {
    const ready = prepared.get(filter);
    if (!ready) throw new Error(`${at}: custom field conditions are compiled after prepareCustomFieldSearch`);
    const field = ready.field;
    if (!field || field.resource !== resource) throw new BadInputError(`${at}.label`, `${filter.label} is not a custom field of ${PLURAL[resource]}`);
    const kind = SEARCH_OF_KIND[field.kind];
    if (!kind) throw new BadInputError(`${at}.label`, `${filter.label} is a ${field.kind} field, which cannot be searched`);
    const parts: Fragment[] = [];
    const { range, matches } = valueConditions(filter, kind, field.id, field.kind, at);
    for (const c of [range, matches]) if (c) parts.push(onRecords(alias, field.id, c, ready.matching.get(c.key)));
    if (filter.matches != null && (kind === 'text' || kind === 'boolean')) {
      const values = matchesOf(filter, at);
      // The key is a checked custom_label_<id> (the compiler refuses any other), so it can be part of the statement.
      const value = `${column}->'${filter.label}'`;
      if (values.length === 0) parts.push({ sql: 'false', params: [] });
      else if (kind === 'text') {
        // v3: like-matches are case-insensitive substrings (DECISIONS: Conditions the spec leaves unshown).
        const terms = values.map((v) => ({ sql: `(${column}->>'${filter.label}') ilike ?`, params: [contains(withoutNul(v))] }));
        parts.push({ sql: `jsonb_typeof(${value}) = 'string' and (${terms.map((t) => t.sql).join(' or ')})`, params: terms.flatMap((t) => t.params) });
      } else {
        const wanted = values.map((v, i) => {
          const text = v.trim().toLowerCase();
          if (text !== 'true' && text !== 'false')
            throw new BadInputError(`${at}.matches[${i}]`, `must be "true" or "false" (${filter.label} is a boolean field)`);
          return text;
        });
        parts.push({ sql: `${value} in (${wanted.map(() => '?::jsonb').join(', ')})`, params: wanted });
      }
    }
    if (parts.length === 0) return null;
    return parts.length === 1 ? parts[0] : { sql: parts.map((p) => `(${p.sql})`).join(' and '), params: parts.flatMap((p) => p.params) };
  };
  return (value: CustomFieldFilter[], path: string) => customFieldConditions(column, value, path, search);
}
