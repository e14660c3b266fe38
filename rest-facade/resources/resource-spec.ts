import type { GraphQLSchema } from 'graphql';
import { derivedFields } from './derived';
import { formatterOf, selectionOf, writableOf, type FieldTable } from './field-table';
import type { Formatter, InputDoc, WritableAttribute } from './value-types';

export type { AttributeType, Formatter, InputDoc, WritableAttribute } from './value-types';

/** The v3 face of one resource, as declared: its root key, GraphQL type and field table. */
export interface V3ResourceDeclaration {
  /** Form root and JSON root key: `company[name]=...`, `{"company": {...}}`. */
  readonly root: string;
  /** The GraphQL object type its operations return. */
  readonly type: string;
  /** Name of the generated fragment its operations spread (`...PersonV3`). */
  readonly fragment: string;
  /** THE table: every v3 key, where it comes from, whether it is writable and how it is shown. */
  readonly fields: FieldTable;
  /**
   * Attributes computed from others on input (e.g. person `full_name` split into first and last
   * name). Runs after `writable` and may add GraphQL input fields.
   */
  readonly derive?: (input: Record<string, unknown>, attributes: Record<string, unknown>, timeZone: string) => void;
  /** The attributes `derive` reads that the table does not make writable (document `url`), for the OpenAPI document. */
  readonly alsoReads?: Readonly<Record<string, InputDoc>>;
  /**
   * Input fields the create input requires (non-null there). The agreement check holds the list
   * to the schema.
   */
  readonly requiredOnCreate?: readonly string[];
  /** GraphQL input field names to v3 names for validation errors, beyond the table's writable fields. */
  readonly errorFields?: Readonly<Record<string, string>>;
  /**
   * By default the fields the table does not list are derived from the schema at boot (derived.ts),
   * so a column declared in the core's field table reaches v3 with nothing written here, and the
   * table holds only what v3 shows differently. `false`: the table lists every key by hand (a
   * GraphQL type several v3 resources show differently, ListItem; keys the recordings fix).
   */
  readonly deriveFromSchema?: false;
}

/** A resource with what its table gives: whitelist, keys, fragment text and formatter. */
export interface V3Resource extends V3ResourceDeclaration {
  /** Whitelist: anything else in the body is ignored (never written). */
  readonly writable: Readonly<Record<string, WritableAttribute>>;
  /** The v3 keys, in output order. */
  readonly keys: readonly string[];
  /** `fragment PersonV3 on Person { first_name: firstName ... }`. */
  readonly fragmentSource: string;
  /** GraphQL result (already keyed in v3) to v3 JSON: formats in place and returns the same object. */
  readonly serialize: (record: Record<string, any>, fmt: Formatter) => Record<string, unknown>;
}

export function v3Resource(definition: V3ResourceDeclaration): V3Resource {
  return {
    ...definition,
    writable: writableOf(definition.fields),
    keys: Object.keys(definition.fields),
    fragmentSource: `fragment ${definition.fragment} on ${definition.type} { ${selectionOf(definition.fields)} }`,
    serialize: formatterOf(definition.fields),
  };
}

/**
 * Adds to a resource that derives from the schema the fields its table does not list (in place,
 * once, at boot: routes hold the resource). Answers the input fields it could not map.
 */
export function completeFromSchema(resource: V3Resource, schema: GraphQLSchema): string[] {
  if (resource.deriveFromSchema === false) return [];
  const { fields, unmapped } = derivedFields(schema, resource.type, resource.fields);
  if (Object.keys(fields).length > 0) Object.assign(resource, v3Resource({ ...resource, fields: { ...resource.fields, ...fields } }));
  return unmapped;
}
