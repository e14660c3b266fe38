import { read, recordId, type FieldTable } from './field-table';
import { defineResource } from './resource-spec';

/** Admin lists are read-only in v3 (§4.10): nothing is writable. */
const ID_AND_NAME: FieldTable = { id: recordId(), name: read('name') };

/** v3 §2.10 lead status: id, name, hex_color. */
export const leadStatusResource = defineResource({
  root: 'lead_status',
  type: 'ListItem',
  fragment: 'LeadStatusV3',
  fields: { ...ID_AND_NAME, hex_color: read('hexColor') },
});

/** v3 §2.10 predefined contacts tag (DECISIONS: Wording): id, name. */
export const predefinedContactsTagResource = defineResource({ root: 'predefined_contacts_tag', type: 'ListItem', fragment: 'PredefinedContactsTagV3', fields: ID_AND_NAME });

/** v3 §2.10 note category: id, name. */
export const noteCategoryResource = defineResource({ root: 'note_category', type: 'ListItem', fragment: 'NoteCategoryV3', fields: ID_AND_NAME });

/** v3 §2.11 lead source: only id and name are known (convenience objects). */
export const leadSourceResource = defineResource({ root: 'lead_source', type: 'ListItem', fragment: 'LeadSourceV3', fields: ID_AND_NAME });
