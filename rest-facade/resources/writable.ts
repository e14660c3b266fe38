import { FacadeInputError } from '../errors/facade-error';
import { toBoolean, toDate, toDateTime, toDecimalString, toId, toIdList, toInteger, toText } from '../request/coerce';
import type { V3Resource, WritableAttribute } from './resource-spec';

/**
 * The facade's one bound on writable text (no table repeats a column's length): it only keeps
 * absurd values away from the core, which checks each column's real length and answers 422
 * naming the field. A table may still set `max` where a route needs a tighter bound.
 */
const DEFAULT_TEXT_MAX = 10_000;
const MAX_CUSTOM_FIELDS = 200;

function coerceCustomFields(value: unknown, field: string): Record<string, unknown> | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new FacadeInputError(field, 'must be an object of custom_label_<n> keys');
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!/^custom_label_\d{1,10}$/.test(key)) continue; // unknown keys are ignored
    if (++count > MAX_CUSTOM_FIELDS) throw new FacadeInputError(field, `has too many entries (maximum is ${MAX_CUSTOM_FIELDS})`);
    const name = key; // errors name the label itself, as the core's custom-field checks do
    // The core reads each value by its field's kind (a date `2001/02/03` or a number `"42"` from a
    // form, booleans as true/false/1/0), so text goes through as sent, only bounded here (the
    // core's own bound, 5,000 characters, is lower and its error names the field).
    if (Array.isArray(v)) out[key] = toIdList(v, name);
    else if (v === null || typeof v === 'number' || typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'string') out[key] = toText(v, name, DEFAULT_TEXT_MAX);
    else throw new FacadeInputError(name, 'must be a number, text, a date or a list of ids');
  }
  return out;
}

const MONEY_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** A decimal amount as text (a JSON number or a string such as "5000.00"); its rounding is the core's. */
function toMoneyText(value: unknown, field: string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null || text.length > 40 || !MONEY_TEXT.test(text)) throw new FacadeInputError(field, 'must be a decimal number');
  return text;
}

function coerce(attr: WritableAttribute, value: unknown, field: string, timeZone: string): unknown {
  switch (attr.type) {
    case 'text':
      // A form cannot send JSON null: an empty value clears (null), so a record read and PUT back
      // whole as form params keeps its nulls (DECISIONS: Paths and requests). JSON "" reads the same.
      return value === '' ? null : toText(value, field, attr.max ?? DEFAULT_TEXT_MAX);
    case 'integer':
      return toInteger(value, field);
    case 'id':
      return toId(value, field);
    case 'ids':
      return value === null || value === '' ? [] : toIdList(value, field);
    case 'boolean':
      return toBoolean(value, field);
    case 'datetime':
      return toDateTime(value, field, timeZone);
    case 'date':
      return toDate(value, field);
    case 'decimal':
      return value === null || value === '' ? null : toDecimalString(value, field, 2);
    case 'money':
      // The core rounds to the account currency's places, once: the text goes through as sent.
      return value === null || value === '' ? null : toMoneyText(value, field);
    case 'customFields':
      return coerceCustomFields(value, field);
    case 'enum': {
      if (value === null || value === '') return null;
      const mapped =
        typeof value === 'string'
          ? (attr.values?.[value] ?? attr.values?.[Object.keys(attr.values ?? {}).find((k) => k.toLowerCase() === value.toLowerCase()) ?? ''])
          : undefined;
      if (mapped === undefined) throw new FacadeInputError(field, `must be one of ${Object.keys(attr.values ?? {}).join(', ')}`);
      return mapped;
    }
  }
}

/**
 * The whitelist at work: only writable attributes reach the GraphQL input, each coerced to its
 * type; read-only and unknown attributes are dropped silently (clients PUT back what they read).
 */
export function toGraphQLInput(
  resource: V3Resource,
  attributes: Record<string, unknown>,
  timeZone: string,
  mode: 'create' | 'update',
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes)) {
    const attr = Object.prototype.hasOwnProperty.call(resource.writable, name) ? resource.writable[name] : undefined;
    if (!attr || value === undefined) continue;
    input[attr.to] = coerce(attr, value, name, timeZone);
  }
  resource.derive?.(input, attributes, timeZone);
  // The create input requires these (`lastName: String!`): one left out or null goes as blank, so
  // the core reports it ("can't be blank") in the same 422 as every other problem of the record.
  if (mode === 'create') for (const field of resource.requiredOnCreate ?? []) if (input[field] == null) input[field] = '';
  return input;
}

/** Validation errors name v3 attributes: the reverse of the whitelist, then the resource's extras. */
export function v3FieldName(resource: V3Resource, graphqlField: string): string {
  if (resource.errorFields?.[graphqlField]) return resource.errorFields[graphqlField];
  const custom = /^customFields\.(custom_label_\d+)$/.exec(graphqlField);
  if (custom) return custom[1];
  for (const [name, attr] of Object.entries(resource.writable)) if (attr.to === graphqlField) return name;
  return graphqlField.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
