import type { CompilerOptions } from 'graphql-jit';
import {
  defaultFieldResolver,
  getNamedType,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/**
 * graphql-jit passes every leaf value through its scalar's or enum's `serialize`, with a call, a
 * location and a path built per value even when nothing fails (some 5,000 on a page of 200
 * deals). The executor compiles with leaf serialization off: enum values and the built-in
 * scalars (String, Int, Float, Boolean, ID) go out as the resolvers return them; custom scalars
 * (DateTimeISO, JSON) are still serialized. That asks two things of the schema:
 *
 * - An enum field answers with the value's GraphQL name. Where an enum's stored values differ
 *   from its names (`OutboxMessageKind`: `person_assignment` → `PERSON_ASSIGNMENT`), each output
 *   field of that enum gets a resolver that maps the stored value to its name
 *   (`enumNamesAtTheField`), and the enum's `serialize` also takes a name as itself, so graphql-js
 *   (introspection, `@skip`/`@include`) answers the same.
 * - A built-in scalar field returns the value as GraphQL would write it: a string for String and
 *   ID (never a number), a whole number within 32 bits for Int, a finite number for Float, a
 *   boolean for Boolean. Nothing converts them any more. Under test (`NODE_ENV=test`, or
 *   `GRAPHQL_STRICT_LEAVES=true`: `checked`) the executor compiles with serialization on and serializers
 *   that refuse any other value (`strictLeafSerializers`), so the whole suite checks every leaf
 *   it produces against the value production writes unconverted.
 */

/** How leaves are compiled: `checked` under test (config `graphqlStrictLeaves`), unconverted otherwise. */
export interface LeafOptions {
  readonly checked: boolean;
}

/** Compiler options for graphql-jit; `keepDates` leaves DateTimeISO values as Date objects (the facade formats them once, last). */
export function leafCompilerOptions(schema: GraphQLSchema, { checked }: LeafOptions, keepDates: boolean): Partial<CompilerOptions> {
  const dates: Record<string, (v: unknown) => unknown> = keepDates ? { DateTimeISO: (v) => v } : {};
  if (!checked) return { disableLeafSerialization: true, customSerializers: dates };
  return { disableLeafSerialization: false, customSerializers: { ...strictLeafSerializers(schema), ...dates } };
}

const MAX_INT = 2 ** 31 - 1;
const MIN_INT = -(2 ** 31);

function refuse(type: string, value: unknown): never {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new Error(`${type} field returned ${typeof value} ${shown.slice(0, 40)}: leaf values are not converted (src/graphql/leaf-values.ts)`);
}

/** Serializers that let through only what production writes unconverted. */
export function strictLeafSerializers(schema: GraphQLSchema): Record<string, (value: unknown) => unknown> {
  const serializers: Record<string, (value: unknown) => unknown> = {
    [GraphQLString.name]: (v) => (typeof v === 'string' ? v : refuse('A String', v)),
    [GraphQLID.name]: (v) => (typeof v === 'string' ? v : refuse('An ID', v)),
    [GraphQLInt.name]: (v) => (Number.isInteger(v) && (v as number) <= MAX_INT && (v as number) >= MIN_INT ? v : refuse('An Int', v)),
    [GraphQLFloat.name]: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : refuse('A Float', v)),
    [GraphQLBoolean.name]: (v) => (typeof v === 'boolean' ? v : refuse('A Boolean', v)),
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLEnumType) || type.name.startsWith('__')) continue;
    const names = new Set(type.getValues().map((v) => v.name));
    serializers[type.name] = (v) => (typeof v === 'string' && names.has(v) ? v : refuse(`An enum ${type.name}`, v));
  }
  return serializers;
}

/** An enum whose stored values are not all its names. */
function renamedEnum(type: GraphQLOutputType): GraphQLEnumType | null {
  const named = getNamedType(type);
  if (!(named instanceof GraphQLEnumType)) return null;
  return named.getValues().some((v) => v.value !== v.name) ? named : null;
}

const NAMES_TAKEN = new WeakSet<GraphQLEnumType>();

/**
 * Lets a renamed enum's `serialize` take a name as well as a stored value (graphql-js serializes
 * what the field's resolver below already named). Refused at boot when a stored value is another
 * value's name: the two could not be told apart.
 */
function takeNames(type: GraphQLEnumType): void {
  if (NAMES_TAKEN.has(type)) return;
  const names = new Set(type.getValues().map((v) => v.name));
  for (const { value, name } of type.getValues()) {
    if (typeof value === 'string' && names.has(value) && value !== name)
      throw new Error(`Enum ${type.name}: the stored value "${value}" is the name of another value`);
  }
  const serialize = type.serialize.bind(type);
  type.serialize = (value: unknown) => (typeof value === 'string' && names.has(value) ? value : serialize(value));
  NAMES_TAKEN.add(type);
}

/** The name of a stored value, or of each in a list. */
function named(type: GraphQLEnumType, value: unknown): unknown {
  if (value == null) return value;
  if (Array.isArray(value)) return value.map((v) => named(type, v));
  return type.serialize(value);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value != null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Gives each output field of a renamed enum a resolver answering with the value's name (the
 * field's own resolver, or the property read, then the name). Returns the fields changed.
 */
export function enumNamesAtTheField(schema: GraphQLSchema): string[] {
  const changed: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const enumType = renamedEnum(field.type);
      if (!enumType) continue;
      takeNames(enumType);
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (root, args, ctx, info) => {
        const value = resolve(root, args, ctx, info);
        return isPromiseLike(value) ? Promise.resolve(value).then((v) => named(enumType, v)) : named(enumType, value);
      };
      changed.push(`${type.name}.${field.name}`);
    }
  }
  return changed;
}
