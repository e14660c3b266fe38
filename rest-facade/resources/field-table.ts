import type { JsonSchema } from '../openapi/json-schema';
import { formatNumeric } from '../response/numeric';
import type { AttributeType, Formatter, WritableAttribute } from './value-types';

/**
 * How a v3 value is shown, once the GraphQL result already carries the v3 key (the fragment
 * aliases each field): `plain` as it comes, a v3 `dateTime` or `date`, a `customFields` object,
 * an enum through a value map, or an explicit function where v3 is odd.
 */
export type Show =
  | 'plain'
  | 'dateTime'
  | 'date'
  | 'customFields'
  | { readonly enum: Readonly<Record<string, string>> }
  | ((value: any, fmt: Formatter, row: Record<string, any>) => unknown);

/** One v3 key of a resource. */
export interface FieldSpec {
  /** The GraphQL field of the resource's type it comes from (aliased to the v3 key). */
  readonly from: string;
  /** Sub-selection of an object field, e.g. `{ id name }`. */
  readonly select?: string;
  /** Writable: the input field is `from` on the resource's input type. Absent: read-only. */
  readonly write?: Omit<WritableAttribute, 'to'>;
  readonly show: Show;
  /**
   * Selected by the operations that want it, not by the fragment (an association under
   * `@include`); the key is absent from the output when not selected.
   */
  readonly optional?: boolean;
  /**
   * What a function `show` answers, as JSON Schema, for the OpenAPI document (rest-facade/openapi/):
   * every other `show` is documented from the GraphQL type. A function without one is documented
   * as any value, and test/unit/openapi-document.test.ts names it.
   */
  readonly shape?: Shape;
}

/** What the OpenAPI generator offers a field's `shape` to build on. */
export interface ShapeContext {
  /** What the field's selection reads, as GraphQL answers it (keys aliased); `{}` when the table selects nothing. */
  readonly selected: JsonSchema;
  /** A shared fragment's schema (`PersonRefV3`, see REF_FRAGMENTS). */
  fragment(name: string): JsonSchema;
  /** A reference to another resource's record schema. */
  record(resource: { readonly fragment: string }): JsonSchema;
  /** The list envelope (`{entries, pagination}`) around `entries`. */
  envelope(entries: JsonSchema): JsonSchema;
}

/** A field's documented output: a schema, or one built from what the generator knows. */
export type Shape = JsonSchema | ((context: ShapeContext) => JsonSchema);

/** The same field, its function `show` documented by `shape`. */
export const shaped = (field: FieldSpec, shape: Shape): FieldSpec => ({ ...field, shape });

/** v3 key → spec, in the order the keys are shown. */
export type FieldTable = Readonly<Record<string, FieldSpec>>;

const writable = (from: string, type: AttributeType, show: Show, extra: Omit<WritableAttribute, 'to' | 'type'> = {}): FieldSpec => ({
  from,
  write: { type, ...extra },
  show,
});

/**
 * Writable text. No per-field length: the core checks each column's real length and answers 422
 * naming the field; the facade's bound is the default of `toGraphQLInput` (10,000 characters).
 */
export const text = (from: string): FieldSpec => writable(from, 'text', 'plain');
export const id = (from: string): FieldSpec => writable(from, 'id', 'plain');
export const ids = (from: string): FieldSpec => writable(from, 'ids', 'plain');
export const boolean = (from: string): FieldSpec => writable(from, 'boolean', 'plain');
export const dateTime = (from: string): FieldSpec => writable(from, 'datetime', 'dateTime');
export const date = (from: string): FieldSpec => writable(from, 'date', 'date');
export const integer = (from: string): FieldSpec => writable(from, 'integer', 'plain');
/** An exact amount (a decimal string out; a number or a string in, rounded by the core). */
export const money = (from: string): FieldSpec => writable(from, 'money', 'plain');
export const customFields = (from = 'customFields'): FieldSpec => ({ ...writable(from, 'customFields', 'customFields'), select: '{ label kind value }' });

/** A GraphQL enum: v3 value → GraphQL value on input, the reverse on output (unknown values as they are). */
export function enumOf(from: string, values: Readonly<Record<string, string>>): FieldSpec {
  const shown: Record<string, string> = Object.create(null);
  for (const [v3, graphql] of Object.entries(values)) shown[graphql] ??= v3;
  return writable(from, 'enum', { enum: shown }, { values });
}

/** The same field, read-only. */
export function readOnly(field: FieldSpec): FieldSpec {
  const { write: _, ...rest } = field;
  return rest;
}

/** A read-only value shown as it comes (or through `show`). */
export const read = (from: string, show: Show = 'plain', select?: string): FieldSpec => ({ from, show, ...(select ? { select } : {}) });

/**
 * Convenience objects (v3 §1.7; DECISIONS: Responses): read-only, an id plus name fields. The
 * user/person form is the generated fragment of the same name (see `REF_FRAGMENTS`).
 */
export const userRef = (from: string): FieldSpec => read(from, 'plain', '{ ...UserRefV3 }');
export const nameRef = (from: string): FieldSpec => read(from, 'plain', '{ id: databaseId name }');

/**
 * A record's company as v3 shows it on people and deals: `{id, name}` from the record's own
 * `company_id` and `company_name`, whatever the viewer may see of the company itself (the record's
 * table must show `company_name`); null when it has none.
 */
export const companyRef = (): FieldSpec =>
  shaped(
    read('companyId', (companyId: number | null, _fmt, row) => (companyId == null ? null : { id: companyId, name: row.company_name ?? null })),
    {
      anyOf: [
        { type: 'object', properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } }, required: ['id', 'name'], additionalProperties: false },
        { type: 'null' },
      ],
    },
  );

/** A record's v3 `id`: its databaseId (GraphQL's `id` is the global one). */
export const recordId = (): FieldSpec => read('databaseId');

/** The union of the two convenience shapes for a user or person: id and names (DECISIONS: Responses). */
const NAME_PARTS = 'id: databaseId first_name: firstName last_name: lastName full_name: fullName';

/** Shared fragments the tables refer to, emitted with the resources' own. */
export const REF_FRAGMENTS: ReadonlyArray<{ readonly name: string; readonly type: string; readonly selection: string }> = [
  { name: 'UserRefV3', type: 'User', selection: NAME_PARTS },
  { name: 'PersonRefV3', type: 'Person', selection: NAME_PARTS },
];

/** The fragment's selection: each v3 key as an alias of its field (`first_name: firstName`). */
export function selectionOf(fields: FieldTable): string {
  const parts: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (field.optional) continue;
    const name = key === field.from ? key : `${key}: ${field.from}`;
    parts.push(field.select ? `${name} ${field.select}` : name);
  }
  return parts.join(' ');
}

/** The whitelist: writable v3 keys → input field and type. */
export function writableOf(fields: FieldTable): Record<string, WritableAttribute> {
  const out: Record<string, WritableAttribute> = {};
  for (const [key, field] of Object.entries(fields)) if (field.write) out[key] = { to: field.from, ...field.write };
  return out;
}

/**
 * `[{label, kind, value}]` to `{custom_label_<n>: value}` (DECISIONS: Responses): dates as
 * YYYY/MM/DD; numeric values as decimal strings ("23.0", as the real service answered; GraphQL
 * keeps the number); currency values already come as decimal strings.
 */
export function customFieldsObject(values: ReadonlyArray<{ label: string; kind: string; value: unknown }> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!values) return out;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // GraphQL serialises the CustomFieldKind enum by name (`DATE`), the TS value is `date`: accept both.
    const kind = v.kind;
    if ((kind === 'DATE' || kind === 'date') && typeof v.value === 'string') out[v.label] = v.value.replace(/-/g, '/');
    else if ((kind === 'NUMERIC' || kind === 'numeric') && v.value !== null) out[v.label] = formatNumeric(v.value);
    else out[v.label] = v.value;
  }
  return out;
}

type Row = Record<string, any>;
type Step = (row: Row, fmt: Formatter) => void;

function stepFor(key: string, field: FieldSpec): Step | null {
  const show = field.show;
  let step: Step;
  if (show === 'plain') return null;
  else if (show === 'dateTime') step = (row, fmt) => void (row[key] = fmt.dateTime(row[key]));
  else if (show === 'date') step = (row, fmt) => void (row[key] = fmt.date(row[key]));
  else if (show === 'customFields') step = (row) => void (row[key] = customFieldsObject(row[key]));
  else if (typeof show === 'function') step = (row, fmt) => void (row[key] = show(row[key], fmt, row));
  else {
    const map = show.enum;
    step = (row) => {
      const v = row[key];
      if (typeof v === 'string' && map[v] !== undefined) row[key] = map[v];
    };
  }
  if (!field.optional) return step;
  return (row, fmt) => {
    if (row[key] !== undefined) step(row, fmt);
  };
}

/**
 * The formatter: the GraphQL row already has the v3 keys in the v3 order (the fragment's
 * aliases), so only the values that need it are rewritten, in place; plain keys are not touched
 * and no second object is built per row.
 */
export function formatterOf(fields: FieldTable): (row: Row, fmt: Formatter) => Row {
  const steps = Object.entries(fields).flatMap(([key, field]) => stepFor(key, field) ?? []);
  return (row, fmt) => {
    for (let i = 0; i < steps.length; i++) steps[i](row, fmt);
    return row;
  };
}
