/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as the OpenAPI document writes it: plain
 * data, built by the generator (rest-facade/openapi/) from the facade's declarations, and by the
 * few declarations that must say what a function answers (a field table's `shape`, a hook's `doc`).
 */
export interface JsonSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly propertyNames?: JsonSchema;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly default?: unknown;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  /** Extensions (`x-crm-...`). */
  readonly [extension: `x-${string}`]: unknown;
}

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** `schema` or null. A `$ref` or a combination is wrapped in `anyOf`; a typed schema gets `null` among its types (and in its enum). */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.type === 'null') return schema;
  if (schema.type === undefined || schema.$ref || schema.anyOf || schema.oneOf || schema.allOf) {
    if (schema.anyOf?.some((s) => s.type === 'null')) return schema;
    const { description, ...rest } = schema;
    return { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) };
  }
  const types = Array.isArray(schema.type) ? (schema.type as readonly JsonType[]) : [schema.type as JsonType];
  const withNull: JsonSchema = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
  return schema.enum && !schema.enum.includes(null) ? { ...withNull, enum: [...schema.enum, null] } : withNull;
}

/** Whether `schema` accepts null (as `nullable` writes it). */
export function isNullable(schema: JsonSchema): boolean {
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  return schema.anyOf?.some(isNullable) ?? false;
}

/** `schema` without null: the inverse of `nullable`. */
export function nonNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = (schema.type as readonly JsonType[]).filter((t) => t !== 'null');
    const out: JsonSchema = { ...schema, type: types.length === 1 ? types[0] : types };
    return schema.enum ? { ...out, enum: schema.enum.filter((v) => v !== null) } : out;
  }
  if (schema.anyOf) {
    const rest = schema.anyOf.filter((s) => s.type !== 'null');
    if (rest.length === 1) return { ...rest[0], ...(schema.description ? { description: schema.description } : {}) };
    return { ...schema, anyOf: rest };
  }
  return schema;
}

/** An object schema with `more` properties beside its own (null kept where it was). */
export function withProperties(schema: JsonSchema, more: Readonly<Record<string, JsonSchema>>): JsonSchema {
  const base = nonNull(schema);
  const extended: JsonSchema = {
    ...base,
    properties: { ...base.properties, ...more },
    required: [...(base.required ?? []), ...Object.keys(more).filter((k) => !base.required?.includes(k))],
  };
  return isNullable(schema) ? nullable(extended) : extended;
}

/** An enum schema's values mapped (`DEAL` → `deal`); any other schema as it is. */
export function mapEnum(schema: JsonSchema, map: (value: string) => string): JsonSchema {
  if (!schema.enum) return schema;
  return { ...schema, enum: schema.enum.map((v) => (typeof v === 'string' ? map(v) : v)) };
}

/** The v3 datetime as responses show it (DECISIONS: Responses): `YYYY/MM/DD HH:MM:SS +hhmm` in the viewer's zone. */
export const V3_DATETIME: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4}$',
  examples: ['2014/05/19 08:54:59 -0400'],
  'x-crm-format': 'v3-datetime',
};

/** The v3 date as responses show it: `YYYY/MM/DD`. */
export const V3_DATE: JsonSchema = { type: 'string', pattern: '^\\d{4}/\\d{2}/\\d{2}$', examples: ['2014/05/19'], 'x-crm-format': 'v3-date' };

/** A decimal string as responses show money and numeric values (`"5000.00"`, `"23.0"`). */
export const DECIMAL_STRING: JsonSchema = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', examples: ['5000.00'] };

/** A record id: a positive 32-bit integer. */
export const RECORD_ID: JsonSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

/** The key of a custom field value (`custom_label_<label id>`). */
export const CUSTOM_LABEL_PATTERN = '^custom_label_[1-9][0-9]{0,9}$';
