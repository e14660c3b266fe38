import { Ctx, Extensions, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { relationField } from '../../graphql/relations';
import type { ListSize } from '../../graphql/cost';
import { recordResource, SETTINGS_SCOPES } from '../common/record-resource';
import { CustomField } from './custom-field.entity';
import { CustomFieldResource } from './custom-field.enums';
import {
  CUSTOM_FIELD_ENTRY_FIELDS,
  CUSTOM_FIELD_GROUP_FIELDS,
  CUSTOM_FIELD_LABEL_FIELDS,
  type CustomFieldEntryInput,
  type CustomFieldGroupInput,
  type CustomFieldLabelInput,
} from './custom-field.fields';
import { CustomFieldEntry } from './custom-field-entry.entity';
import { CUSTOM_FIELD_ENTRIES, CUSTOM_FIELD_ENTRIES_PAGE_SIZE, CustomFieldEntryService } from './custom-field-entry.service';
import { CustomFieldGroup } from './custom-field-group.entity';
import { CUSTOM_FIELD_GROUPS, CUSTOM_FIELD_GROUPS_PAGE_SIZE, CustomFieldGroupService } from './custom-field-group.service';
import { entriesField, MAX_ENTRIES_PER_FIELD } from './custom-field.loaders';
import { CUSTOM_FIELD_LABELS, CUSTOM_FIELDS_PAGE_SIZE, CustomFieldService } from './custom-field.service';

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';
const RESOURCE_DOC = 'Only of these records: one of other records is answered like a missing one. Any records when absent.';

/**
 * Custom fields (v3 labels), their groups and their entries (DECISIONS: Admin surface): readable
 * by every user of the account, changed by admins only. The generated lists, lookups and
 * mutations; create, update and delete are the services' (admins only, unique names, bounds,
 * values removed from records). A field or group may be reached as one of some records only
 * (`resource`, as the v3 routes of one resource do).
 */
export const CUSTOM_FIELD_LABEL_RESOURCE = recordResource({
  records: CUSTOM_FIELD_LABELS,
  fields: CUSTOM_FIELD_LABEL_FIELDS,
  singular: 'customFieldLabel',
  plural: 'customFieldLabels',
  scopes: SETTINGS_SCOPES,
  pageSize: CUSTOM_FIELDS_PAGE_SIZE,
  docs: {
    list: `The account's custom fields (of people, companies and deals). Every user of the account may read them. Default order: resource, then position, then databaseId; ${CUSTOM_FIELDS_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which fields; all of them when absent.',
    show: "One custom field by databaseId; null when it does not exist in the viewer's account.",
    create: `Adds a custom field to people, companies or deals. ${ADMINS_ONLY}`,
    update: `Changes a custom field: only the fields given. Its kind changes only while no record has a value for it (else an INVALID user error on kind). A missing field is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a custom field and its entries, and removes its value from every record. A missing field is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The field's databaseId.",
    input: 'The new field.',
    created: 'The created custom field',
    changed: 'The custom field as changed',
  },
  within: {
    name: 'resource',
    type: () => CustomFieldResource,
    docs: { list: 'Only the fields of these records; all when absent.', show: RESOURCE_DOC, update: RESOURCE_DOC, delete: RESOURCE_DOC },
  },
  steps: {
    list: (ctx, filter, orderBy, paging, reads, resource?: CustomFieldResource | null) =>
      new CustomFieldService(ctx).list(filter, orderBy as never, paging, reads, resource),
    get: (ctx, id, resource?: CustomFieldResource | null) => new CustomFieldService(ctx).find(id, resource),
    create: (ctx, input) => new CustomFieldService(ctx).create(input as CustomFieldLabelInput),
    update: (ctx, id, input, _options, resource?: CustomFieldResource | null) =>
      new CustomFieldService(ctx).update(id, input as CustomFieldLabelInput, resource),
    delete: (ctx, id, resource?: CustomFieldResource | null) => new CustomFieldService(ctx).delete(id, resource),
  },
});

export const CUSTOM_FIELD_GROUP_RESOURCE = recordResource({
  records: CUSTOM_FIELD_GROUPS,
  fields: CUSTOM_FIELD_GROUP_FIELDS,
  singular: 'customFieldGroup',
  plural: 'customFieldGroups',
  scopes: SETTINGS_SCOPES,
  pageSize: CUSTOM_FIELD_GROUPS_PAGE_SIZE,
  docs: {
    list: `The account's custom field groups. Every user of the account may read them. Default order: resource, then position, then databaseId; ${CUSTOM_FIELD_GROUPS_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which groups; all of them when absent.',
    show: "One custom field group by databaseId; null when it does not exist in the viewer's account.",
    create: `Adds a custom field group. ${ADMINS_ONLY}`,
    update: `Changes a custom field group: only the fields given. A missing group is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a custom field group; its fields stay, in no group. A missing group is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The group's databaseId.",
    input: 'The new group.',
    created: 'The created group',
    changed: 'The group as changed',
  },
  within: {
    name: 'resource',
    type: () => CustomFieldResource,
    docs: { list: 'Only the groups of these records; all when absent.', show: RESOURCE_DOC, update: RESOURCE_DOC, delete: RESOURCE_DOC },
  },
  steps: {
    list: (ctx, filter, orderBy, paging, reads, resource?: CustomFieldResource | null) =>
      new CustomFieldGroupService(ctx).list(filter, orderBy as never, paging, reads, resource),
    get: (ctx, id, resource?: CustomFieldResource | null) => new CustomFieldGroupService(ctx).find(id, resource),
    create: (ctx, input) => new CustomFieldGroupService(ctx).create(input as CustomFieldGroupInput),
    update: (ctx, id, input, _options, resource?: CustomFieldResource | null) =>
      new CustomFieldGroupService(ctx).update(id, input as CustomFieldGroupInput, resource),
    delete: (ctx, id, resource?: CustomFieldResource | null) => new CustomFieldGroupService(ctx).delete(id, resource),
  },
});

export const CUSTOM_FIELD_ENTRY_RESOURCE = recordResource({
  records: CUSTOM_FIELD_ENTRIES,
  fields: CUSTOM_FIELD_ENTRY_FIELDS,
  singular: 'customFieldEntry',
  plural: 'customFieldEntries',
  scopes: SETTINGS_SCOPES,
  pageSize: CUSTOM_FIELD_ENTRIES_PAGE_SIZE,
  docs: {
    list: `Entries of the account's dropdown and multi-select fields (filter by customFieldLabelId for one field's). Every user of the account may read them. Default order: field, then position; ${CUSTOM_FIELD_ENTRIES_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which entries; all of them when absent.',
    show: "One custom field entry by databaseId; null when it does not exist in the viewer's account.",
    create: `Adds an entry to a dropdown or multi-select field. ${ADMINS_ONLY}`,
    update: `Changes a custom field entry: only the fields given. A missing entry is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a custom field entry and removes it from every record's value (a dropdown loses its value, a multi-select keeps its other entries). A missing entry is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The entry's databaseId.",
    input: 'The new entry.',
    created: 'The created entry',
    changed: 'The entry as changed',
  },
  steps: {
    create: (ctx, input) => new CustomFieldEntryService(ctx).create(input as CustomFieldEntryInput),
    update: (ctx, id, input) => new CustomFieldEntryService(ctx).update(id, input as CustomFieldEntryInput),
    delete: (ctx, id) => new CustomFieldEntryService(ctx).delete(id),
  },
});

@Resolver(() => CustomField)
export class CustomFieldLabelFieldsResolver {
  @FieldResolver(() => CustomFieldGroup, { nullable: true, description: "The field's group; null when it is in none." })
  group(@Root() field: CustomField, @Ctx() ctx: RequestContext) {
    return relationField(ctx, CustomFieldGroup, field.group?.id);
  }

  @FieldResolver(() => [CustomFieldEntry], {
    description: `The entries of a dropdown or multi-select field, in their order (at most ${MAX_ENTRIES_PER_FIELD}); empty for other kinds.`,
  })
  // Bounded (the service refuses more): the cost of what is selected under it multiplies by it (cost.ts).
  @Extensions({ listSize: { max: MAX_ENTRIES_PER_FIELD } satisfies ListSize })
  entries(@Root() field: CustomField, @Ctx() ctx: RequestContext) {
    return entriesField(ctx, field);
  }
}
