import { InputType } from 'type-graphql';
import { EnumFilterOf } from '../../graphql/filters';
import { defineResource, type InputOf } from '../../kit/fields';
import { CustomField } from './custom-field.entity';
import { CustomFieldKind, CustomFieldResource } from './custom-field.enums';
import { CustomFieldEntry } from './custom-field-entry.entity';
import { CustomFieldGroup } from './custom-field-group.entity';

@InputType('CustomFieldResourceFilter', { description: 'Conditions on the kind of record a custom field or group belongs to.' })
export class CustomFieldResourceFilter extends EnumFilterOf(CustomFieldResource, 'kind of record') {}

@InputType('CustomFieldKindFilter', { description: 'Conditions on the kind of value a custom field holds.' })
export class CustomFieldKindFilter extends EnumFilterOf(CustomFieldKind, 'kind') {}

/** The most characters of a label, group or entry name. */
export const MAX_CUSTOM_FIELD_NAME = 100;

/**
 * Every custom field (v3 label) field, once (DECISIONS: Admin surface: `{id, name, field_type,
 * output_type, is_required, position, type, custom_field_group_id, custom_field_label_dropdown_entries}`):
 * inputs, filter, order and their SQL derive from it. The kit copies `resource` on create; the
 * service applies the rest.
 */
export const CUSTOM_FIELD_LABEL_FIELDS = defineResource(
  {
    type: 'CustomFieldLabel',
    plural: 'custom fields',
    entity: CustomField,
    alias: 'cf',
    defaultOrder: ['resource', 'position'],
    createDoc: 'A new custom field: resource, name and kind are required; it goes after the other fields of its records unless a position is given.',
    updateDoc:
      'Changes to a custom field: only the fields given change; null clears groupId (name and kind cannot be cleared). resource cannot change and is ignored.',
    filterDoc: 'Which custom fields to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key custom fields can be ordered by (default: resource, then position).',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The field's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    resource: {
      kind: 'enum',
      enum: CustomFieldResource,
      write: 'create',
      required: true,
      createDoc: 'Required: the records the field belongs to (people, companies or deals).',
      updateDoc: 'Ignored: a field stays with its records (accepted so a field read can be sent back whole).',
      filter: { input: () => CustomFieldResourceFilter, doc: 'The records the field belongs to.' },
      sort: { case: 'cs', doc: 'The records the field belongs to (company, deal, person).' },
    },
    name: {
      kind: 'text',
      write: 'custom',
      required: true,
      createDoc: `Required; at most ${MAX_CUSTOM_FIELD_NAME} characters; unique among the custom fields of its records (case-insensitive).`,
      updateDoc: `At most ${MAX_CUSTOM_FIELD_NAME} characters; unique among the custom fields of its records (case-insensitive); cannot be blank.`,
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case.' },
    },
    kind: {
      kind: 'enum',
      enum: CustomFieldKind,
      write: 'custom',
      required: true,
      createDoc: 'Required: what kind of value the field holds.',
      updateDoc:
        "What kind of value the field holds; refused while any record has a value for the field. Leaving dropdown and multi-select for another kind deletes the field's entries.",
      filter: { input: () => CustomFieldKindFilter, doc: 'What kind of value the field holds.' },
    },
    isRequired: {
      kind: 'boolean',
      write: 'custom',
      inputDoc: 'Whether a value is required when a record is created (and may not be cleared); false when absent or null.',
      filter: { doc: 'Whether a value is required.' },
    },
    position: {
      kind: 'int',
      write: 'custom',
      createDoc: 'Place among the custom fields of its records (0 or more); after the last one when absent.',
      updateDoc: 'Place among the custom fields of its records (0 or more); cannot be cleared.',
      sort: { doc: 'Place among the custom fields of its records.' },
    },
    groupId: {
      kind: 'ref',
      property: 'group',
      write: 'custom',
      inputDoc: 'databaseId of a custom field group of the same records; null for none.',
      filter: { doc: 'The group (its databaseId).' },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the field was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the field was last changed.' }, sort: { doc: 'Last change.' } },
  },
);

export type CustomFieldLabelInput = InputOf<typeof CUSTOM_FIELD_LABEL_FIELDS.table>;

/** Every custom field group field, once (DECISIONS: Admin surface: `{id, name, position, type}`). */
export const CUSTOM_FIELD_GROUP_FIELDS = defineResource(
  {
    type: 'CustomFieldGroup',
    plural: 'custom field groups',
    entity: CustomFieldGroup,
    alias: 'cg',
    defaultOrder: ['resource', 'position'],
    createDoc: 'A new custom field group: resource and name are required; it goes after the other groups of its records unless a position is given.',
    updateDoc: 'Changes to a custom field group: only the fields given change (none can be cleared). resource cannot change and is ignored.',
    filterDoc: 'Which custom field groups to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key custom field groups can be ordered by (default: resource, then position).',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The group's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    resource: {
      kind: 'enum',
      enum: CustomFieldResource,
      write: 'create',
      required: true,
      createDoc: 'Required: the records whose custom fields the group gathers.',
      updateDoc: 'Ignored: a group stays with its records (accepted so a group read can be sent back whole).',
      filter: { input: () => CustomFieldResourceFilter, doc: 'The records whose custom fields the group gathers.' },
      sort: { case: 'cs', doc: 'The records whose custom fields the group gathers (company, deal, person).' },
    },
    name: {
      kind: 'text',
      write: 'custom',
      required: true,
      createDoc: `Required; at most ${MAX_CUSTOM_FIELD_NAME} characters; unique among the groups of its records (case-insensitive).`,
      updateDoc: `At most ${MAX_CUSTOM_FIELD_NAME} characters; unique among the groups of its records (case-insensitive); cannot be blank.`,
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case.' },
    },
    position: {
      kind: 'int',
      write: 'custom',
      createDoc: 'Place among the groups of its records (0 or more); after the last one when absent.',
      updateDoc: 'Place among the groups of its records (0 or more); cannot be cleared.',
      sort: { doc: 'Place among the groups of its records.' },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the group was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the group was last changed.' }, sort: { doc: 'Last change.' } },
  },
);

export type CustomFieldGroupInput = InputOf<typeof CUSTOM_FIELD_GROUP_FIELDS.table>;

/** Every dropdown entry field, once (DECISIONS: Admin surface: `{"custom_field_label_dropdown_entry": {"name", "custom_field_label_id"}}`). */
export const CUSTOM_FIELD_ENTRY_FIELDS = defineResource(
  {
    type: 'CustomFieldEntry',
    plural: 'custom field entries',
    entity: CustomFieldEntry,
    alias: 'ce',
    defaultOrder: ['customFieldLabelId', 'position'],
    createDoc:
      "A new entry of a dropdown or multi-select field: name and customFieldLabelId are required; it goes to the end of its field's list unless a position is given.",
    updateDoc: 'Changes to an entry: only the fields given change (none can be cleared); an entry cannot move to another field.',
    filterDoc: 'Which custom field entries to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key custom field entries can be ordered by (default: field, then position).',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The entry's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    customFieldLabelId: {
      kind: 'ref',
      property: 'customField',
      write: 'custom',
      required: true,
      createDoc: 'Required: databaseId of the dropdown or multi-select custom field the entry belongs to.',
      updateDoc: "databaseId of the entry's field; only its own field is accepted (an entry cannot move).",
      filter: { doc: 'The custom field (its databaseId).' },
      sort: { doc: "The custom field's databaseId." },
    },
    name: {
      kind: 'text',
      write: 'custom',
      required: true,
      createDoc: `Required; at most ${MAX_CUSTOM_FIELD_NAME} characters; unique among the entries of its field (case-insensitive).`,
      updateDoc: `At most ${MAX_CUSTOM_FIELD_NAME} characters; unique among the entries of its field (case-insensitive); cannot be blank.`,
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case.' },
    },
    position: {
      kind: 'int',
      write: 'custom',
      createDoc: "Place in its field's list (0 or more); the end of the list when absent.",
      updateDoc: "Place in its field's list (0 or more); cannot be cleared.",
      sort: { doc: "Place in its field's list." },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the entry was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the entry was last changed.' }, sort: { doc: 'Last change.' } },
  },
);

export type CustomFieldEntryInput = InputOf<typeof CUSTOM_FIELD_ENTRY_FIELDS.table>;
