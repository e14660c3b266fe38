import {
  buildSchema,
  findBreakingChanges,
  findDangerousChanges,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type GraphQLSchema,
} from 'graphql';

export interface SchemaChange {
  /** The schema coordinate it concerns: `Person`, `Person.company`, `Query.people(first:)`. */
  readonly coordinate: string;
  readonly description: string;
}

/** What a client must know between two versions of the schema (SDL texts). */
export interface SchemaChanges {
  readonly breaking: SchemaChange[];
  readonly dangerous: SchemaChange[];
  readonly added: SchemaChange[];
}

/** The coordinate graphql-js's change descriptions start with (`Person.id changed type ...`). */
function coordinateOf(description: string): string {
  const match = /^([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)?)/.exec(description);
  return match ? match[1] : description;
}

/** Every type and field (and enum value) of a schema, by coordinate. */
function coordinates(schema: GraphQLSchema): Set<string> {
  const out = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    out.add(type.name);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))
      for (const field of Object.keys(type.getFields())) out.add(`${type.name}.${field}`);
    if (isEnumType(type)) for (const value of type.getValues()) out.add(`${type.name}.${value.name}`);
  }
  return out;
}

export function schemaChanges(fromSdl: string, toSdl: string): SchemaChanges {
  const from = buildSchema(fromSdl);
  const to = buildSchema(toSdl);
  const as = (c: { description: string }): SchemaChange => ({ coordinate: coordinateOf(c.description), description: c.description });
  const before = coordinates(from);
  const added = [...coordinates(to)].filter((c) => !before.has(c)).map((coordinate) => ({ coordinate, description: `${coordinate} was added.` }));
  return { breaking: findBreakingChanges(from, to).map(as), dangerous: findDangerousChanges(from, to).map(as), added };
}
