import type { ResourceSpec } from './resource-spec';

/** Admin lists are read-only in v3 (§4.10): nothing is writable. */
const READ_ONLY = {} as const;

const idAndName = (i: Record<string, any>) => ({ id: i.id, name: i.name });

/** v3 §2.10 lead status: id, name, hex_color. */
export const leadStatusResource: ResourceSpec = {
  root: 'lead_status',
  writable: READ_ONLY,
  serialize: (i) => ({ ...idAndName(i), hex_color: i.hexColor ?? null }),
};

/** v3 §2.10 predefined contacts tag (DECISIONS: Wording): id, name. */
export const predefinedContactsTagResource: ResourceSpec = {
  root: 'predefined_contacts_tag',
  writable: READ_ONLY,
  serialize: idAndName,
};

/** v3 §2.10 note category: id, name. */
export const noteCategoryResource: ResourceSpec = {
  root: 'note_category',
  writable: READ_ONLY,
  serialize: idAndName,
};

/** v3 §2.11 lead source: only id and name are known (convenience objects). */
export const leadSourceResource: ResourceSpec = {
  root: 'lead_source',
  writable: READ_ONLY,
  serialize: idAndName,
};
