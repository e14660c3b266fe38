import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { INT32_MAX, INT32_MIN, MAX_ID_LIST } from '../request/coerce';
import type { FieldSpec, ShapeContext } from '../resources/field-table';
import type { InputDoc, V3Resource } from '../resources/resource-spec';
import { CUSTOM_LABEL_PATTERN, DECIMAL_STRING, nullable, RECORD_ID, V3_DATE, V3_DATETIME, type JsonSchema } from './json-schema';

/**
 * A resource's record and input as JSON Schema, read from its field table (rest-facade/resources/)
 * and the GraphQL types its keys come from: what v3 answers (each key's value as its `show` makes
 * it, from the type of the field its fragment selects) and what it accepts (the writable keys, each
 * as its attribute type is read by rest-facade/resources/writable.ts).
 */

/** The component name of a resource's record: its fragment without `V3` (`DealV3` → `Deal`). */
export const recordName = (resource: { readonly fragment: string }): string => resource.fragment.replace(/V3$/, '');

/** The component name of a resource's writable attributes (`DealInput`). */
export const inputName = (resource: { readonly fragment: string }): string => `${recordName(resource)}Input`;

export const refTo = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The GraphQL scalars as JSON shows them. */
function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'String':
    case 'ID':
      return { type: 'string' };
    case 'DateTimeISO':
      return { type: 'string', format: 'date-time' };
    case 'Decimal':
      return DECIMAL_STRING;
    case 'JSONObject':
      return { type: 'object' };
    default:
      return {};
  }
}

/** Reads selections against the schema: what GraphQL answers for a selection, as JSON Schema. */
export class SelectionReader {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    documents: DocumentNode,
  ) {
    for (const d of documents.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(d.name.value, d);
  }

  /** A fragment's object, or null when there is no such fragment. */
  fragment(name: string): JsonSchema | null {
    const definition = this.fragments.get(name);
    const type = definition && this.schema.getType(definition.typeCondition.name.value);
    return definition && type ? this.objectOf(type, definition.selectionSet) : null;
  }

  /** The fragment's own keys, each with the schema of what it selects (keys under `@include` are absent). */
  fragmentKeys(name: string): Map<string, JsonSchema> {
    const definition = this.fragments.get(name);
    const type = definition && this.schema.getType(definition.typeCondition.name.value);
    const out = new Map<string, JsonSchema>();
    if (!definition || !type || !(isObjectType(type) || isInterfaceType(type))) return out;
    this.collect(type, definition.selectionSet, out, new Set());
    return out;
  }

  private collect(type: GraphQLNamedType, selectionSet: SelectionSetNode, out: Map<string, JsonSchema>, optional: Set<string>): void {
    if (!isObjectType(type) && !isInterfaceType(type)) return;
    const fields = type.getFields();
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (selection.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip')) optional.add(key);
        if (selection.name.value === '__typename') {
          out.set(key, { type: 'string' });
          continue;
        }
        const field = fields[selection.name.value];
        if (field) out.set(key, this.valueOf(field.type, selection.selectionSet));
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const spread = this.fragments.get(selection.name.value);
        if (spread) this.collect(type, spread.selectionSet, out, optional);
      } else if (!selection.typeCondition || selection.typeCondition.name.value === type.name) {
        this.collect(type, selection.selectionSet, out, optional);
      }
    }
  }

  private objectOf(type: GraphQLNamedType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (!selectionSet) return { type: 'object' };
    if (isUnionType(type) || isInterfaceType(type)) {
      // Each concrete type's object, as its inline fragments select it (`... on Deal { id name }`).
      const members = isUnionType(type) ? type.getTypes() : this.schema.getPossibleTypes(type);
      const variants = members.map((member) => this.plainObject(member, selectionSet));
      const distinct = variants.filter((v, i) => variants.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) === i);
      return distinct.length === 1 ? distinct[0] : { anyOf: distinct };
    }
    return this.plainObject(type, selectionSet);
  }

  private plainObject(type: GraphQLNamedType, selectionSet: SelectionSetNode): JsonSchema {
    const keys = new Map<string, JsonSchema>();
    const optional = new Set<string>();
    this.collect(type, selectionSet, keys, optional);
    const required = [...keys.keys()].filter((k) => !optional.has(k));
    return { type: 'object', properties: Object.fromEntries(keys), required, additionalProperties: false };
  }

  /** A field's value: null unless the type is non-null, lists as arrays, objects as their selection. */
  valueOf(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.nonNullValue(type.ofType, selectionSet);
    return nullable(this.nonNullValue(type, selectionSet));
  }

  private nonNullValue(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.valueOf(type.ofType, selectionSet) };
    if (isNonNullType(type)) return this.nonNullValue(type.ofType, selectionSet);
    if (isScalarType(type)) return scalarSchema(type.name);
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    return this.objectOf(type, selectionSet);
  }
}

/** `custom_fields` as v3 shows it (DECISIONS: Responses): every label of the resource, by `custom_label_<id>`. */
export const CUSTOM_FIELDS_OUTPUT: JsonSchema = {
  type: 'object',
  description:
    'Every custom field defined for the resource, as `custom_label_<label id>`: text as a string, numeric and currency as decimal strings ("23.0"), dates as YYYY/MM/DD, dropdowns as the entry id, multi-selects as a list of entry ids, booleans as true or false; null when unset.',
  patternProperties: {
    [CUSTOM_LABEL_PATTERN]: { type: ['string', 'integer', 'boolean', 'array', 'null'], items: { type: 'integer' } },
  },
  additionalProperties: false,
  examples: [{ custom_label_3: 'Referral', custom_label_7: '23.0', custom_label_9: [4, 5] }],
};

/** What the generator offers a field's `shape`, less what it knows of the field. */
export type ShapeTools = Omit<ShapeContext, 'selected'>;

/** The schema of one key of a record, from its field spec and what its selection reads. */
export function keySchema(spec: FieldSpec, selected: JsonSchema | undefined, tools: ShapeTools, where: string): JsonSchema {
  const show = spec.show;
  const graphql = selected ?? {};
  const nullableHere = selected !== undefined && isNullableValue(graphql);
  const maybeNull = (schema: JsonSchema) => (nullableHere ? nullable(schema) : schema);
  if (spec.shape !== undefined) return typeof spec.shape === 'function' ? spec.shape({ ...tools, selected: graphql }) : spec.shape;
  if (show === 'plain') return graphql;
  if (show === 'dateTime') return maybeNull(V3_DATETIME);
  if (show === 'date') return maybeNull(V3_DATE);
  if (show === 'customFields') return CUSTOM_FIELDS_OUTPUT;
  if (typeof show === 'function') return { description: `Not documented: ${where} is shown by a function without a \`shape\`.`, 'x-crm-undeclared': true };
  // An enum through its value map; a value the map lacks is shown as it is.
  const values = graphqlEnumValues(graphql).map((v) => show.enum[v] ?? v);
  return maybeNull({ type: 'string', enum: values });
}

/**
 * A GraphQL field's description, for its v3 key: where v3 shows the value in its own format (a
 * datetime in the user's zone, a date with slashes), the GraphQL format it names is left out.
 */
function v3Description(description: string | null | undefined, spec: FieldSpec): string | undefined {
  if (!description) return undefined;
  if (spec.show !== 'dateTime' && spec.show !== 'date') return description;
  return description.replace(/\s*\((?:ISO 8601[^)]*|YYYY-MM-DD[^)]*)\)/g, '');
}

function isNullableValue(schema: JsonSchema): boolean {
  return (Array.isArray(schema.type) && schema.type.includes('null')) || (schema.anyOf?.some((s) => s.type === 'null') ?? false);
}

function graphqlEnumValues(schema: JsonSchema): string[] {
  const own = (schema.enum ?? []).filter((v): v is string => typeof v === 'string');
  return own.length > 0 ? own : (schema.anyOf ?? []).flatMap(graphqlEnumValues);
}

/**
 * A resource's record: each key of its table in order, required unless the table marks it optional
 * (selected by some operations only), described by the GraphQL field it shows, read-only unless
 * writable.
 */
export function recordSchema(schema: GraphQLSchema, reader: SelectionReader, resource: V3Resource, tools: ShapeTools): JsonSchema {
  const selected = reader.fragmentKeys(resource.fragment);
  const type = schema.getType(resource.type);
  const fields = isObjectType(type) ? type.getFields() : {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, spec] of Object.entries(resource.fields)) {
    const value = keySchema(spec, selected.get(key), tools, `${resource.root}.${key}`);
    const description = value.description ?? v3Description(fields[spec.from]?.description, spec);
    const deprecated = fields[spec.from]?.deprecationReason ? { deprecated: true } : {};
    properties[key] = { ...value, ...(description ? { description } : {}), ...(spec.write ? {} : { readOnly: true }), ...deprecated };
    if (!spec.optional) required.push(key);
  }
  return {
    type: 'object',
    description: `${type?.description ?? resource.type} (v3 \`${resource.root}\`)`,
    properties,
    required,
    additionalProperties: false,
    'x-crm-record': resource.root,
  };
}

const INTEGER_TEXT = '^\\s*[+-]?\\d{1,16}\\s*$';
const BOOLEAN_WORDS = ['true', 'false', '1', '0', 't', 'f', 'yes', 'no', 'y', 'n', 'on', 'off'];

/** How an input of an attribute type is read (rest-facade/resources/writable.ts): JSON types, and the strings a form sends for them. */
export function attributeSchema(attr: InputDoc): JsonSchema {
  switch (attr.type) {
    case 'text':
      return { type: ['string', 'null'], maxLength: attr.max ?? 10_000 };
    case 'integer':
      return { anyOf: [{ type: 'integer', minimum: INT32_MIN, maximum: INT32_MAX }, { type: 'string', pattern: INTEGER_TEXT }, { type: 'null' }] };
    case 'id':
      return { anyOf: [RECORD_ID, { type: 'string', pattern: '^\\s*\\+?[1-9]\\d{0,9}\\s*$' }, { type: 'null' }] };
    case 'ids':
      return {
        anyOf: [
          { type: 'array', items: { anyOf: [RECORD_ID, { type: 'string', pattern: '^[0-9, ]*$' }] }, maxItems: MAX_ID_LIST },
          { type: 'string', pattern: '^[0-9, ]*$', description: 'comma-separated ids' },
          { type: 'null' },
        ],
        description: 'Replaces the set; an empty list (or an empty form value) clears it.',
      };
    case 'boolean':
      return { anyOf: [{ type: 'boolean' }, { type: 'string', enum: BOOLEAN_WORDS }, { type: 'null' }] };
    case 'datetime':
      return {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'ISO 8601, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` or the v3 form `YYYY/MM/DD HH:MM:SS +hhmm`; without an offset, in the user’s time zone.',
        examples: ['2014/05/19 08:54:59 -0400', '2014-05-19T12:54:59Z'],
      };
    case 'date':
      return { type: ['string', 'null'], format: 'date', description: '`YYYY-MM-DD` or `YYYY/MM/DD`.', examples: ['2014/05/19'] };
    case 'decimal':
    case 'money':
      return {
        anyOf: [{ type: 'number' }, { type: 'string', pattern: '^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)\\s*$' }, { type: 'null' }],
        description: 'A decimal amount, as a number or a string ("5000.00"); rounded by the service to the currency’s places.',
        examples: ['5000.00'],
      };
    case 'customFields':
      return {
        type: ['object', 'null'],
        description:
          'Values by `custom_label_<label id>`: text, a number, a date, true/false, an entry id or a list of entry ids; keys of another form are ignored.',
        patternProperties: {
          [CUSTOM_LABEL_PATTERN]: { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array', items: { type: ['integer', 'string'] } }] },
        },
        examples: [{ custom_label_3: 'Referral' }],
      };
    case 'enum': {
      const values = Object.keys(attr.values ?? {});
      return { type: ['string', 'null'], enum: [...values, null], description: 'Matched in any case.' };
    }
  }
}

/** The writable attributes of a resource, and those its `derive` reads: the object under the body's root key. */
export function inputSchema(schema: GraphQLSchema, resource: V3Resource, extra: Readonly<Record<string, InputDoc>> = {}): JsonSchema | null {
  const update = schema.getType(`${resource.type}UpdateInput`);
  const create = schema.getType(`${resource.type}CreateInput`);
  const deprecated = (to: string) =>
    Boolean(
      (isInputObjectType(update) ? update.getFields()[to]?.deprecationReason : undefined) ??
      (isInputObjectType(create) ? create.getFields()[to]?.deprecationReason : undefined),
    );
  const describe = (to: string) =>
    (isInputObjectType(update) ? update.getFields()[to]?.description : undefined) ??
    (isInputObjectType(create) ? create.getFields()[to]?.description : undefined);
  const properties: Record<string, JsonSchema> = {};
  for (const [key, attr] of Object.entries(resource.writable)) {
    const description = describe(attr.to);
    const base = attributeSchema(attr);
    const described = description ? { ...base, description: base.description ? `${description} ${base.description}` : description } : base;
    properties[key] = deprecated(attr.to) ? { ...described, deprecated: true } : described;
  }
  for (const [key, doc] of Object.entries({ ...resource.alsoReads, ...extra })) {
    const base = attributeSchema(doc);
    properties[key] = doc.description ? { ...base, description: doc.description } : base;
  }
  if (Object.keys(properties).length === 0) return null;
  return {
    type: 'object',
    description: `The writable attributes of a ${resource.root.replace(/_/g, ' ')}; read-only and unknown ones are ignored (clients may send back a record as they read it).`,
    properties,
    'x-crm-input': resource.root,
  };
}

/** The v3 keys a create requires: the create input's required fields the table writes, less those the route fixes itself (`args`). */
export function requiredOnCreate(resource: V3Resource, fixedByRoute: readonly string[]): string[] {
  const keys: string[] = [];
  for (const field of resource.requiredOnCreate ?? []) {
    if (fixedByRoute.includes(field)) continue;
    const key = Object.entries(resource.writable).find(([, attr]) => attr.to === field)?.[0] ?? (resource.alsoReads?.[field] ? field : undefined);
    if (key) keys.push(key);
  }
  return keys;
}

/** A sample value of an attribute, for examples. */
export function exampleOf(key: string, attr: InputDoc): unknown {
  switch (attr.type) {
    case 'text':
      return key === 'url' ? 'https://files.example.com/report.pdf' : key.endsWith('email') ? 'someone@example.com' : `Example ${key.replace(/_/g, ' ')}`;
    case 'integer':
      return 1;
    case 'id':
      return 1;
    case 'ids':
      return [1, 2];
    case 'boolean':
      return true;
    case 'datetime':
      return '2014/05/19 08:54:59 -0400';
    case 'date':
      return '2014/05/19';
    case 'decimal':
    case 'money':
      return '5000.00';
    case 'customFields':
      return { custom_label_1: 'Referral' };
    case 'enum':
      return Object.keys(attr.values ?? {})[0] ?? null;
  }
}
