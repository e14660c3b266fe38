import { boolean, enumOf, id, read, recordId, text, type FieldTable } from './field-table';
import { integer, TIMESTAMPS } from './list-item';
import { v3Resource } from './resource-spec';

/**
 * DECISIONS (Admin surface): `field_type` values, v3 → GraphQL `CustomFieldKind`. `number` (the
 * old name of `numeric`) is accepted on input; output uses the first name of each kind.
 */
export const FIELD_TYPES: Readonly<Record<string, string>> = {
  text: 'TEXT',
  numeric: 'NUMERIC',
  currency: 'CURRENCY',
  date: 'DATE',
  dropdown: 'DROPDOWN',
  multi_select: 'MULTI_SELECT',
  boolean: 'BOOLEAN',
  number: 'NUMERIC',
};

/** DECISIONS (Admin surface): a label's `type` names its resource (`DealCustomFieldLabel`…). */
export const LABEL_TYPES: Readonly<Record<string, string>> = {
  DealCustomFieldLabel: 'DEAL',
  PersonCustomFieldLabel: 'PERSON',
  CompanyCustomFieldLabel: 'COMPANY',
};

/** A group's `type`, named like the labels' (`DealCustomFieldGroup`…). */
export const GROUP_TYPES: Readonly<Record<string, string>> = {
  DealCustomFieldGroup: 'DEAL',
  PersonCustomFieldGroup: 'PERSON',
  CompanyCustomFieldGroup: 'COMPANY',
};

const OUTPUT_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FIELD_TYPES)
    .reverse()
    .map(([v3, graphql]) => [graphql, v3]),
);

/**
 * DECISIONS (Admin surface): a label entry is `{id, name, field_type, output_type, is_required,
 * position, type, custom_field_group_id, custom_field_label_dropdown_entries [{id, name, position}],
 * created_at, updated_at}`. `output_type` (how the value is shown) is the field type itself: every
 * kind is shown in its own shape (DECISIONS: Responses).
 */
const LABEL_FIELDS: FieldTable = {
  id: recordId(),
  name: text('name'),
  field_type: enumOf('kind', FIELD_TYPES),
  output_type: read('kind', { enum: OUTPUT_TYPES }),
  is_required: boolean('isRequired'),
  position: integer('position'),
  type: enumOf('resource', LABEL_TYPES),
  custom_field_group_id: id('groupId'),
  custom_field_label_dropdown_entries: read('entries', 'plain', '{ id: databaseId name position }'),
  ...TIMESTAMPS,
};

/** The create input requires these: one left out goes as blank, answered 422 by the route (custom-fields.routes.ts). */
const LABEL_REQUIRED = ['name', 'kind', 'resource'];

const label = (root: string, fragment: string) =>
  v3Resource({ root, type: 'CustomFieldLabel', fragment, requiredOnCreate: LABEL_REQUIRED, fields: LABEL_FIELDS });

/** `/admin/custom_field_labels.json`: every resource's labels, each with its `type`. */
export const customFieldLabelResource = label('custom_field_label', 'CustomFieldLabelV3');
/** `/admin/deal_custom_field_labels.json` and its person and company twins. */
export const dealCustomFieldLabelResource = label('deal_custom_field_label', 'DealCustomFieldLabelV3');
export const personCustomFieldLabelResource = label('person_custom_field_label', 'PersonCustomFieldLabelV3');
export const companyCustomFieldLabelResource = label('company_custom_field_label', 'CompanyCustomFieldLabelV3');

/** DECISIONS (Admin surface): `/admin/custom_field_groups.json`, `{id, name, position, type}`. */
export const customFieldGroupResource = v3Resource({
  root: 'custom_field_group',
  type: 'CustomFieldGroup',
  fragment: 'CustomFieldGroupV3',
  requiredOnCreate: ['name', 'resource'],
  fields: { id: recordId(), name: text('name'), position: integer('position'), type: enumOf('resource', GROUP_TYPES), ...TIMESTAMPS },
});

/**
 * DECISIONS (Admin surface): `/admin/custom_field_label_dropdown_entries.json`, created with
 * `{"custom_field_label_dropdown_entry": {"name", "custom_field_label_id"}}`.
 */
export const customFieldEntryResource = v3Resource({
  root: 'custom_field_label_dropdown_entry',
  type: 'CustomFieldEntry',
  fragment: 'CustomFieldEntryV3',
  requiredOnCreate: ['name', 'customFieldLabelId'],
  fields: { id: recordId(), name: text('name'), position: integer('position'), custom_field_label_id: id('customFieldLabelId'), ...TIMESTAMPS },
});

export const CUSTOM_FIELD_RESOURCES = [
  customFieldLabelResource,
  dealCustomFieldLabelResource,
  personCustomFieldLabelResource,
  companyCustomFieldLabelResource,
  customFieldGroupResource,
  customFieldEntryResource,
] as const;
