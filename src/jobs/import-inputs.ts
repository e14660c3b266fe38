import { V3InputError } from '../kit/v3/input-error';
import { dealResource } from '../../rest-facade/resources/deal';
import type { V3Resource } from '../../rest-facade/resources/resource-spec';
import { toGraphQLInput, v3FieldName } from '../../rest-facade/resources/writable';

/*
 * Rows of an import written record by record (issue 27 §1: deals), read as the v3 API reads a
 * record: the facade's field table says which v3 keys are writable and how each is coerced
 * (rest-facade/resources/writable.ts), so a row names the same fields, takes the same forms (what
 * a v3 list shows, what an export writes) and is refused for the same reasons as a v3 create. The
 * record is then written by the resource's own create and update (its upsert declaration).
 */

const V3_TABLES: Readonly<Record<string, V3Resource>> = { deals: dealResource };

const tableOf = (resource: string): V3Resource => {
  const table = V3_TABLES[resource];
  if (!table) throw new Error(`no v3 table for imports of ${resource}`);
  return table;
};

/** The v3 keys a row of `resource` may give (its writable keys), `custom_fields` aside: a row gives custom fields as `custom_label_N`. */
export function v3WritableKeys(resource: string): ReadonlySet<string> {
  return new Set(Object.keys(tableOf(resource).writable).filter((k) => k !== 'custom_fields'));
}

/**
 * A row's v3 attributes as the resource's GraphQL create input, or the v3 key refused and why. A
 * list of ids may be a JSON array (`[3,4]`, as an export's CSV writes it) or ids separated by commas.
 */
export function v3InputOf(
  resource: string,
  attributes: Record<string, unknown>,
  timeZone: string,
): { input: Record<string, unknown> } | { field: string; message: string } {
  const table = tableOf(resource);
  const given: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes)) {
    const attr = Object.prototype.hasOwnProperty.call(table.writable, name) ? table.writable[name] : undefined;
    if (attr?.type === 'ids' && typeof value === 'string' && value.trim().startsWith('[')) {
      try {
        given[name] = JSON.parse(value) as unknown;
      } catch {
        return { field: name, message: 'must be a list of ids' };
      }
    } else given[name] = value;
  }
  try {
    // Nothing filled in for a create: a row without a name is refused by the service (BLANK), and an update keeps what the row leaves out.
    return { input: toGraphQLInput(table, given, timeZone, 'update') };
  } catch (error) {
    if (error instanceof V3InputError) return { field: error.field, message: error.message };
    throw error;
  }
}

/** The v3 key a validation error of the GraphQL input field names (`ownerId` → `user_id`, `customFields.custom_label_3` → `custom_label_3`). */
export function v3ErrorField(resource: string, graphqlField: string): string {
  return v3FieldName(tableOf(resource), graphqlField);
}
