import { getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isObjectType, type GraphQLSchema } from 'graphql';
import { v3Key } from '../../src/kit/v3/names';
import { boolean, customFields, date, dateTime, id, ids, integer, money, text, type FieldSpec, type FieldTable } from './field-table';

/** How a writable field of the resource's input reaches v3, by its input type. */
function specFor(name: string, typeName: string, list: boolean): FieldSpec | null {
  if (list) return typeName === 'Int' ? ids(name) : null;
  switch (typeName) {
    case 'String':
      return /Date$/.test(name) ? date(name) : text(name);
    case 'Int':
      return /Id$/.test(name) ? id(name) : integer(name);
    case 'Float':
      return integer(name);
    case 'Boolean':
      return boolean(name);
    case 'DateTimeISO':
      return dateTime(name);
    case 'Decimal':
      return money(name);
    case 'JSONObject':
      return customFields(name);
    default:
      return null;
  }
}

/**
 * The fields a resource's table does not list, derived from the schema: every field of the
 * update input that the record type also shows, under its v3 key. So a column declared once in
 * the core's field table reaches v3 with nothing written here; a table entry still wins (a
 * convenience object, a value shown differently, a v3 quirk). Fields of another shape (enums,
 * objects) must be listed by hand: they are reported, never guessed.
 */
export function derivedFields(schema: GraphQLSchema, typeName: string, table: FieldTable): { fields: FieldTable; unmapped: string[] } {
  const type = schema.getType(typeName);
  const input = schema.getType(`${typeName}UpdateInput`);
  const fields: Record<string, FieldSpec> = {};
  const unmapped: string[] = [];
  if (!isObjectType(type) || !isInputObjectType(input)) return { fields, unmapped };
  const covered = new Set(Object.values(table).map((f) => f.from));
  const shown = type.getFields();
  for (const field of Object.values(input.getFields())) {
    const key = v3Key(field.name, field.extensions);
    if (covered.has(field.name) || key in table || !shown[field.name]) continue;
    const named = getNamedType(field.type);
    const spec = isEnumType(named) ? null : specFor(field.name, named.name, isListType(getNullableType(field.type)));
    if (spec) fields[key] = spec;
    else unmapped.push(`${typeName}.${field.name}`);
  }
  return { fields, unmapped };
}
