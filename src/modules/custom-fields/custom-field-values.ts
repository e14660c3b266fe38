import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { Issues } from '../../common/errors';
import { MoneyError, toMoney } from '../../common/money';
import { GraphQLDecimal } from '../../graphql/decimal';
import { dateProblem } from '../../common/dates';
import { withoutNul } from '../common/input';
import { CustomField } from './custom-field.entity';
import { CustomFieldKind } from './custom-field.enums';
import { CustomFieldEntry } from './custom-field-entry.entity';

/*
 * Custom field values (v3 §1.9; DECISIONS: Responses, custom_fields). Stored in each record's
 * `custom_fields` jsonb, keyed `custom_label_<id>`, one JSON type per kind, so SQL filters and
 * totals read them directly: text a string, numeric and currency a number (currency rounded to the
 * account currency's places and at most 15 significant digits, so the number is exact), date a
 * `YYYY-MM-DD` string, boolean true/false, dropdown an entry id, multi-select an array of entry
 * ids. A cleared value is no key at all. Shown: every field of the resource, null when unset
 * (multi-select []); currency as a decimal string with the currency's places ("1250.00").
 */

// Typed views are getters: a list shows thousands of values and most operations (the v3 facade's)
// select only `label kind value`, so nothing else is built unless asked for.
@ObjectType('CustomFieldValue', { simpleResolvers: true, description: "A custom field of the record and its value, typed by the field's kind." })
export class CustomFieldValue {
  constructor(
    /** The definition (with its entries). */
    def: CustomField,
    value: unknown,
  ) {
    this.field = def;
    this.fieldId = def.id;
    this.label = def.label;
    this.name = def.name;
    this.kind = def.kind;
    this.value = value;
  }

  @Field(() => Int, { description: 'databaseId of the custom field (label).' }) fieldId: number;
  @Field({ description: "The field's key in customFields inputs and v3: custom_label_<databaseId>." }) label: string;
  @Field({ description: "The field's name, as the account defined it." }) name: string;
  @Field(() => CustomFieldKind, { description: 'What kind of value the field holds.' }) kind: CustomFieldKind;
  @Field(() => CustomField, { description: 'The custom field itself (its definition).' }) field: CustomField;
  @Field(() => GraphQLJSON, {
    nullable: true,
    description:
      'The value as JSON, null when unset: text a string, numeric a number, currency a decimal string ("1250.00"), date YYYY-MM-DD, boolean true/false, dropdown an entry databaseId, multi-select a list of them ([] when none). The typed fields below hold the same value.',
  })
  value: unknown;

  @Field(() => String, { nullable: true, description: "A text field's value; null for other kinds or when unset." })
  get textValue(): string | null {
    return this.kind === CustomFieldKind.TEXT ? (this.value as string | null) : null;
  }

  @Field(() => Float, { nullable: true, description: "A numeric field's value; null for other kinds or when unset." })
  get numberValue(): number | null {
    return this.kind === CustomFieldKind.NUMERIC ? (this.value as number | null) : null;
  }

  @Field(() => GraphQLDecimal, {
    nullable: true,
    description: 'A currency field\'s value in the account currency ("1250.00"); null for other kinds or when unset.',
  })
  get decimalValue(): string | null {
    return this.kind === CustomFieldKind.CURRENCY ? (this.value as string | null) : null;
  }

  @Field(() => String, { nullable: true, description: "A date field's value, YYYY-MM-DD; null for other kinds or when unset." })
  get dateValue(): string | null {
    return this.kind === CustomFieldKind.DATE ? (this.value as string | null) : null;
  }

  @Field(() => Boolean, { nullable: true, description: "A boolean field's value; null for other kinds or when unset." })
  get booleanValue(): boolean | null {
    return this.kind === CustomFieldKind.BOOLEAN ? (this.value as boolean | null) : null;
  }

  @Field(() => [Int], {
    nullable: true,
    description: "The chosen entries' databaseIds of a dropdown (at most one) or multi-select field ([] when none), in the order stored; null for other kinds.",
  })
  get entryIds(): number[] | null {
    if (this.kind === CustomFieldKind.MULTI_SELECT) return this.value as number[];
    if (this.kind === CustomFieldKind.DROPDOWN) return this.value === null ? [] : [this.value as number];
    return null;
  }

  @Field(() => [CustomFieldEntry], {
    nullable: true,
    description: "The chosen entries of a dropdown (at most one) or multi-select field, in the field's order; null for other kinds.",
  })
  get entries(): CustomFieldEntry[] | null {
    const ids = this.entryIds;
    return ids === null ? null : (this.field.entries ?? []).filter((e) => ids.includes(e.id));
  }
}

@InputType('CustomFieldValueInput', {
  description:
    'The value of one custom field of a record: the field by labelId, and the value in the input field of its kind (text, number for numeric, decimal for currency, date, boolean, entryIds for dropdown and multi-select). None of them (or null) clears the value.',
})
export class CustomFieldValueInput {
  @Field(() => Int, { description: "databaseId of the custom field (label), of the record's kind." }) labelId!: number;
  @Field(() => String, { nullable: true, description: 'For a text field: at most 5,000 characters.' }) text?: string | null;
  @Field(() => Float, { nullable: true, description: 'For a numeric field.' }) number?: number | null;
  @Field(() => GraphQLDecimal, { nullable: true, description: "For a currency field: rounded to the account currency's places." }) decimal?: string | null;
  @Field(() => String, { nullable: true, description: 'For a date field: YYYY-MM-DD.' }) date?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'For a boolean field.' }) boolean?: boolean | null;
  @Field(() => [Int], {
    nullable: true,
    description: 'For a dropdown field (one entry) or a multi-select field (any entries): entry databaseIds of that field.',
  })
  entryIds?: number[] | null;
}

/** The input field of CustomFieldValueInput each kind reads. */
const TYPED_FIELD: Readonly<Record<CustomFieldKind, keyof Omit<CustomFieldValueInput, 'labelId'>>> = {
  [CustomFieldKind.TEXT]: 'text',
  [CustomFieldKind.NUMERIC]: 'number',
  [CustomFieldKind.CURRENCY]: 'decimal',
  [CustomFieldKind.DATE]: 'date',
  [CustomFieldKind.BOOLEAN]: 'boolean',
  [CustomFieldKind.DROPDOWN]: 'entryIds',
  [CustomFieldKind.MULTI_SELECT]: 'entryIds',
};

export const MAX_CUSTOM_TEXT = 5000;
/** Most values one write may set through `customFieldValues`. */
export const MAX_CUSTOM_FIELD_VALUES = 200;
/** Significant digits a JSON number (a double) holds exactly: a currency value may not have more. */
const EXACT_DIGITS = 15;
const DATE = /^(\d{4})[-/](\d{2})[-/](\d{2})$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
const ID_TEXT = /^\d{1,10}$/;
const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

const entrySets = new WeakMap<CustomField, ReadonlySet<number>>();
function entryIdsOf(def: CustomField): ReadonlySet<number> {
  let set = entrySets.get(def);
  if (!set) entrySets.set(def, (set = new Set((def.entries ?? []).map((e) => e.id))));
  return set;
}

/** No value: unset, null, blank text, no entries. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

function isoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = DATE.exec(value.trim());
  if (!m) return null;
  // The canonical form, checked as every date input is (src/common/dates.ts: a day that exists, years 1 to 9999).
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  return dateProblem(date) === null ? date : null;
}

function entryId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && ID_TEXT.test(value.trim())) return Number(value.trim());
  return null;
}

/** How a stored value shows (null when unset or not of the field's kind). */
function shown(def: CustomField, raw: unknown, decimals: number): unknown {
  switch (def.kind) {
    case CustomFieldKind.TEXT:
      return typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : null;
    case CustomFieldKind.NUMERIC:
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    case CustomFieldKind.CURRENCY:
      try {
        return typeof raw === 'number' || typeof raw === 'string' ? toMoney(raw, decimals) : null;
      } catch {
        return null;
      }
    case CustomFieldKind.DATE:
      return isoDate(raw);
    case CustomFieldKind.BOOLEAN:
      return typeof raw === 'boolean' ? raw : null;
    case CustomFieldKind.DROPDOWN: {
      const id = entryId(Array.isArray(raw) ? raw[0] : raw);
      return id !== null && entryIdsOf(def).has(id) ? id : null;
    }
    case CustomFieldKind.MULTI_SELECT: {
      const known = entryIdsOf(def);
      return (Array.isArray(raw) ? raw : raw == null ? [] : [raw]).map(entryId).filter((id): id is number => id !== null && known.has(id));
    }
  }
}

/** Every defined field is present, unset ones as null (multi-select: []), with typed values. */
export function presentCustomFields(defs: readonly CustomField[], stored: Record<string, unknown> | null | undefined, decimals: number): CustomFieldValue[] {
  const values = stored ?? {};
  return defs.map((def) => new CustomFieldValue(def, shown(def, values[def.label], decimals)));
}

/** A refused value: the issue is recorded (naming the field) and nothing is written. */
const REFUSED = Symbol('refused');

/**
 * `value` as the field's kind stores it; null clears it. Messages name the field (the path names
 * its key): `must be a number (custom field "Budget")`.
 */
function coerce(def: CustomField, value: unknown, path: string, issues: Issues, decimals: number): unknown {
  const refuse = (message: string) => {
    issues.invalid(path, `${message} (custom field "${def.name}")`);
    return REFUSED;
  };
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0)) return null;
  switch (def.kind) {
    case CustomFieldKind.TEXT: {
      if (typeof value !== 'string' && typeof value !== 'number') return refuse('must be text');
      const text = withoutNul(String(value)); // PostgreSQL text cannot hold NUL
      if ([...text].length > MAX_CUSTOM_TEXT) {
        issues.add(path, 'TOO_LONG', `is too long (maximum is ${MAX_CUSTOM_TEXT} characters) (custom field "${def.name}")`);
        return REFUSED;
      }
      return text;
    }
    case CustomFieldKind.NUMERIC: {
      const n = typeof value === 'number' ? value : typeof value === 'string' && NUMBER_TEXT.test(value.trim()) ? Number(value.trim()) : NaN;
      if (!Number.isFinite(n)) return refuse('must be a number');
      return n;
    }
    case CustomFieldKind.CURRENCY: {
      if (typeof value !== 'number' && typeof value !== 'string') return refuse('must be a decimal number');
      let amount: string | null;
      try {
        amount = toMoney(value, decimals);
      } catch (error) {
        if (error instanceof MoneyError) return refuse(error.message);
        throw error;
      }
      if (amount === null) return null;
      if (amount.replace(/[-.]/g, '').replace(/^0+/, '').length > EXACT_DIGITS) return refuse(`is too large (at most ${EXACT_DIGITS} digits)`);
      return Number(amount);
    }
    case CustomFieldKind.DATE: {
      const date = isoDate(value);
      return date ?? refuse('must be a date like 2026-01-31');
    }
    case CustomFieldKind.BOOLEAN: {
      if (typeof value === 'boolean') return value;
      const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim().toLowerCase() : '';
      if (TRUE.has(text)) return true;
      if (FALSE.has(text)) return false;
      return refuse('must be true or false');
    }
    case CustomFieldKind.DROPDOWN: {
      const list = Array.isArray(value) ? value : [value];
      if (list.length > 1) return refuse('takes one entry');
      const id = entryId(list[0]);
      if (id === null || !entryIdsOf(def).has(id)) return refuse("must be one of the field's entries");
      return id;
    }
    case CustomFieldKind.MULTI_SELECT: {
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
      const known = entryIdsOf(def);
      const ids: number[] = [];
      for (const item of list) {
        if (typeof item === 'string' && item.trim() === '') continue;
        const id = entryId(item);
        if (id === null || !known.has(id)) return refuse('must list entries of the field');
        if (!ids.includes(id)) ids.push(id);
      }
      return ids;
    }
  }
}

/** The value a typed input item carries for its field's kind, or REFUSED when it gives another kind's. */
function typedValue(def: CustomField, item: CustomFieldValueInput, path: string, issues: Issues): unknown {
  const own = TYPED_FIELD[def.kind];
  for (const key of Object.values(TYPED_FIELD)) {
    if (key === own || item[key] === undefined || item[key] === null) continue;
    issues.invalid(`${path}.${key}`, `is not for a ${def.kind} field: give ${own} (custom field "${def.name}")`);
    return REFUSED;
  }
  return item[own];
}

export interface CustomFieldWriteOptions {
  /** The account currency's places (currency values are rounded to them). */
  readonly decimals: number;
  /** A new record: every required field must get a value. */
  readonly isNew: boolean;
  /** Typed values (`customFieldValues`), applied after `input`. */
  readonly typed?: readonly CustomFieldValueInput[] | null;
}

/**
 * Applies `input` (keyed custom_label_<id>, v3 and the JSON input) and then `options.typed` over
 * `current`; answers the values to store. JSON keys of no field are ignored (unknown attributes are
 * ignored, DECISIONS "Paths and requests"); a typed value naming no field is refused. Bad values are
 * reported on `customFields.<key>` (typed: `customFieldValues.<index>`), naming the field; a
 * required field left without a value on create, or cleared, is blank.
 */
export function mergeCustomFields(
  defs: readonly CustomField[],
  current: Record<string, unknown>,
  input: Record<string, unknown> | null | undefined,
  issues: Issues,
  options: CustomFieldWriteOptions = { decimals: 2, isNew: false },
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  const byLabel = new Map(defs.map((d) => [d.label, d]));
  const touched = new Map<string, string>();
  const apply = (def: CustomField, value: unknown, path: string) => {
    // A value sent back as it was read is kept as it is: clients PUT back whole records (DECISIONS),
    // and that must not fail on data they did not touch (a required field still unset included).
    if (JSON.stringify(value) === JSON.stringify(current[def.label]) || (isEmptyValue(value) && isEmptyValue(current[def.label]))) return;
    const coerced = value === REFUSED ? REFUSED : coerce(def, value, path, issues, options.decimals);
    if (coerced === REFUSED) return;
    if (coerced === null) delete next[def.label];
    else next[def.label] = coerced;
    touched.set(def.label, path);
  };
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const [label, value] of Object.entries(input)) {
      const def = byLabel.get(label);
      if (def) apply(def, value, `customFields.${label}`);
    }
  }
  const typed = options.typed ?? [];
  if (typed.length > MAX_CUSTOM_FIELD_VALUES) issues.invalid('customFieldValues', `has too many values (maximum is ${MAX_CUSTOM_FIELD_VALUES})`);
  else {
    typed.forEach((item, i) => {
      const path = `customFieldValues.${i}`;
      const def = defs.find((d) => d.id === item.labelId);
      if (!def) issues.missing(`${path}.labelId`);
      else apply(def, typedValue(def, item, path, issues), path);
    });
  }
  for (const def of defs) {
    if (!def.isRequired || !isEmptyValue(next[def.label])) continue;
    if (options.isNew || touched.has(def.label)) issues.blank(touched.get(def.label) ?? `customFields.${def.label}`);
  }
  return next;
}

/** What a record's `customFields` input takes (the JSON object of v3 and earlier clients). */
export const CUSTOM_FIELDS_INPUT_DOC =
  'Custom field values keyed custom_label_<id>: text, a number (numeric), a decimal number or string (currency), a date (YYYY-MM-DD or YYYY/MM/DD), true/false/1/0 (boolean), an entry id (dropdown) or ids (multi-select); each is checked against its field. Keys of no field are ignored; null, "" or [] clears a value. customFieldValues takes the same values typed.';

/** The typed twin of `customFields` in a record's inputs (a field table line: people, companies, deals). */
export const CUSTOM_FIELD_VALUES_INPUT = {
  kind: 'json',
  property: null,
  write: 'custom',
  inputType: () => [CustomFieldValueInput],
  inputDoc:
    'Custom field values, typed: one item per field (by labelId) with the value in the input field of its kind; checked as customFields is (applied after it). A labelId of no custom field of these records is a NOT_FOUND user error.',
} as const;
