import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { relationField } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import type { ListSize } from '../../graphql/cost';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { findManyVisible } from '../common/resource';
import { CustomField } from './custom-field.entity';
import { CustomFieldResource } from './custom-field.enums';
import {
  CUSTOM_FIELD_ENTRY,
  CUSTOM_FIELD_GROUP,
  CUSTOM_FIELD_LABEL,
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

@ObjectType('CustomFieldLabelConnection', { description: 'A page of custom fields, with cursors.' })
export class CustomFieldLabelConnection extends ConnectionOf(CustomField, 'CustomFieldLabel', 'custom fields') {}

@ObjectType('CustomFieldGroupConnection', { description: 'A page of custom field groups, with cursors.' })
export class CustomFieldGroupConnection extends ConnectionOf(CustomFieldGroup, 'CustomFieldGroup', 'custom field groups') {}

@ObjectType('CustomFieldEntryConnection', { description: 'A page of custom field entries, with cursors.' })
export class CustomFieldEntryConnection extends ConnectionOf(CustomFieldEntry, 'CustomFieldEntry', 'custom field entries') {}

@ObjectType('CreateCustomFieldLabelPayload', { description: 'The result of createCustomFieldLabel.' })
class CreateCustomFieldLabelPayload extends RecordPayload(CustomField, 'customFieldLabel', 'The created custom field') {}

@ObjectType('UpdateCustomFieldLabelPayload', { description: 'The result of updateCustomFieldLabel.' })
class UpdateCustomFieldLabelPayload extends RecordPayload(CustomField, 'customFieldLabel', 'The custom field as changed') {}

@ObjectType('DeleteCustomFieldLabelPayload', { description: 'The result of deleteCustomFieldLabel.' })
class DeleteCustomFieldLabelPayload extends DeletePayload {}

@ObjectType('CreateCustomFieldGroupPayload', { description: 'The result of createCustomFieldGroup.' })
class CreateCustomFieldGroupPayload extends RecordPayload(CustomFieldGroup, 'customFieldGroup', 'The created group') {}

@ObjectType('UpdateCustomFieldGroupPayload', { description: 'The result of updateCustomFieldGroup.' })
class UpdateCustomFieldGroupPayload extends RecordPayload(CustomFieldGroup, 'customFieldGroup', 'The group as changed') {}

@ObjectType('DeleteCustomFieldGroupPayload', { description: 'The result of deleteCustomFieldGroup.' })
class DeleteCustomFieldGroupPayload extends DeletePayload {}

@ObjectType('CreateCustomFieldEntryPayload', { description: 'The result of createCustomFieldEntry.' })
class CreateCustomFieldEntryPayload extends RecordPayload(CustomFieldEntry, 'customFieldEntry', 'The created entry') {}

@ObjectType('UpdateCustomFieldEntryPayload', { description: 'The result of updateCustomFieldEntry.' })
class UpdateCustomFieldEntryPayload extends RecordPayload(CustomFieldEntry, 'customFieldEntry', 'The entry as changed') {}

@ObjectType('DeleteCustomFieldEntryPayload', { description: 'The result of deleteCustomFieldEntry.' })
class DeleteCustomFieldEntryPayload extends DeletePayload {}

registerNode({ name: 'CustomFieldLabel', entity: CustomField, find: (ctx, ids) => findManyVisible(ctx, CUSTOM_FIELD_LABELS, ids) });
registerNode({ name: 'CustomFieldGroup', entity: CustomFieldGroup, find: (ctx, ids) => findManyVisible(ctx, CUSTOM_FIELD_GROUPS, ids) });
registerNode({ name: 'CustomFieldEntry', entity: CustomFieldEntry, find: (ctx, ids) => findManyVisible(ctx, CUSTOM_FIELD_ENTRIES, ids) });

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';
const ORDER_DOC = 'Ordering keys, at most 5; databaseId breaks ties.';
const RESOURCE_DOC = 'Only of these records: one of other records is answered like a missing one. Any records when absent.';

/**
 * Custom fields (v3 labels), their groups and their entries (DECISIONS: Admin surface): readable
 * by every user of the account, changed by admins only.
 */
@Resolver()
export class CustomFieldResolver {
  @Query(() => CustomFieldLabelConnection, {
    description: `The account's custom fields (of people, companies and deals). Every user of the account may read them. Default order: resource, then position, then databaseId; ${CUSTOM_FIELDS_PAGE_SIZE} a page unless asked otherwise.`,
  })
  customFieldLabels(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: 'Only the fields of these records; all when absent.' })
    resource?: CustomFieldResource,
    @Arg('filter', () => CUSTOM_FIELD_LABEL.Filter, { nullable: true, description: 'Which fields; all of them when absent.' })
    filter?: InstanceType<typeof CUSTOM_FIELD_LABEL.Filter>,
    @Arg('orderBy', () => [CUSTOM_FIELD_LABEL.Order], { nullable: true, description: ORDER_DOC })
    orderBy?: Array<InstanceType<typeof CUSTOM_FIELD_LABEL.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<CustomField>> {
    return new CustomFieldService(ctx).list(filter, orderBy, pagingOf(args, CUSTOM_FIELDS_PAGE_SIZE), connectionReads(info), resource);
  }

  @Query(() => CustomField, { nullable: true, description: "One custom field by databaseId; null when it does not exist in the viewer's account." })
  customFieldLabel(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The field's databaseId." }) id: number,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: RESOURCE_DOC }) resource?: CustomFieldResource,
  ) {
    return new CustomFieldService(ctx).find(id, resource);
  }

  @Query(() => CustomFieldGroupConnection, {
    description: `The account's custom field groups. Every user of the account may read them. Default order: resource, then position, then databaseId; ${CUSTOM_FIELD_GROUPS_PAGE_SIZE} a page unless asked otherwise.`,
  })
  customFieldGroups(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: 'Only the groups of these records; all when absent.' })
    resource?: CustomFieldResource,
    @Arg('filter', () => CUSTOM_FIELD_GROUP.Filter, { nullable: true, description: 'Which groups; all of them when absent.' })
    filter?: InstanceType<typeof CUSTOM_FIELD_GROUP.Filter>,
    @Arg('orderBy', () => [CUSTOM_FIELD_GROUP.Order], { nullable: true, description: ORDER_DOC })
    orderBy?: Array<InstanceType<typeof CUSTOM_FIELD_GROUP.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<CustomFieldGroup>> {
    return new CustomFieldGroupService(ctx).list(filter, orderBy, pagingOf(args, CUSTOM_FIELD_GROUPS_PAGE_SIZE), connectionReads(info), resource);
  }

  @Query(() => CustomFieldGroup, { nullable: true, description: "One custom field group by databaseId; null when it does not exist in the viewer's account." })
  customFieldGroup(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The group's databaseId." }) id: number,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: RESOURCE_DOC }) resource?: CustomFieldResource,
  ) {
    return new CustomFieldGroupService(ctx).find(id, resource);
  }

  @Query(() => CustomFieldEntryConnection, {
    description: `Entries of the account's dropdown and multi-select fields (filter by customFieldLabelId for one field's). Every user of the account may read them. Default order: field, then position; ${CUSTOM_FIELD_ENTRIES_PAGE_SIZE} a page unless asked otherwise.`,
  })
  customFieldEntries(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => CUSTOM_FIELD_ENTRY.Filter, { nullable: true, description: 'Which entries; all of them when absent.' })
    filter?: InstanceType<typeof CUSTOM_FIELD_ENTRY.Filter>,
    @Arg('orderBy', () => [CUSTOM_FIELD_ENTRY.Order], { nullable: true, description: ORDER_DOC })
    orderBy?: Array<InstanceType<typeof CUSTOM_FIELD_ENTRY.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<CustomFieldEntry>> {
    return new CustomFieldEntryService(ctx).list(filter, orderBy, pagingOf(args, CUSTOM_FIELD_ENTRIES_PAGE_SIZE), connectionReads(info));
  }

  @Query(() => CustomFieldEntry, { nullable: true, description: "One custom field entry by databaseId; null when it does not exist in the viewer's account." })
  customFieldEntry(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The entry's databaseId." }) id: number) {
    return new CustomFieldEntryService(ctx).find(id);
  }

  @Mutation(() => CreateCustomFieldLabelPayload, { description: `Adds a custom field to people, companies or deals. ${ADMINS_ONLY}` })
  createCustomFieldLabel(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CUSTOM_FIELD_LABEL.CreateInput, { description: 'The new field.' }) input: CustomFieldLabelInput,
  ) {
    return recordPayload('customFieldLabel', () => new CustomFieldService(ctx).create(input));
  }

  @Mutation(() => UpdateCustomFieldLabelPayload, {
    description: `Changes a custom field: only the fields given. Its kind changes only while no record has a value for it (else an INVALID user error on kind). A missing field is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  updateCustomFieldLabel(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The field's databaseId." }) id: number,
    @Arg('input', () => CUSTOM_FIELD_LABEL.UpdateInput, { description: 'The changes.' }) input: CustomFieldLabelInput,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: RESOURCE_DOC }) resource?: CustomFieldResource,
  ) {
    return recordPayload('customFieldLabel', () => new CustomFieldService(ctx).update(id, input, resource));
  }

  @Mutation(() => DeleteCustomFieldLabelPayload, {
    description: `Deletes a custom field and its entries, and removes its value from every record. A missing field is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  deleteCustomFieldLabel(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The field's databaseId." }) id: number,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: RESOURCE_DOC }) resource?: CustomFieldResource,
  ) {
    return deletePayload('CustomFieldLabel', () => new CustomFieldService(ctx).delete(id, resource));
  }

  @Mutation(() => CreateCustomFieldGroupPayload, { description: `Adds a custom field group. ${ADMINS_ONLY}` })
  createCustomFieldGroup(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CUSTOM_FIELD_GROUP.CreateInput, { description: 'The new group.' }) input: CustomFieldGroupInput,
  ) {
    return recordPayload('customFieldGroup', () => new CustomFieldGroupService(ctx).create(input));
  }

  @Mutation(() => UpdateCustomFieldGroupPayload, {
    description: `Changes a custom field group: only the fields given. A missing group is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  updateCustomFieldGroup(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The group's databaseId." }) id: number,
    @Arg('input', () => CUSTOM_FIELD_GROUP.UpdateInput, { description: 'The changes.' }) input: CustomFieldGroupInput,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: RESOURCE_DOC }) resource?: CustomFieldResource,
  ) {
    return recordPayload('customFieldGroup', () => new CustomFieldGroupService(ctx).update(id, input, resource));
  }

  @Mutation(() => DeleteCustomFieldGroupPayload, {
    description: `Deletes a custom field group; its fields stay, in no group. A missing group is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  deleteCustomFieldGroup(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The group's databaseId." }) id: number,
    @Arg('resource', () => CustomFieldResource, { nullable: true, description: RESOURCE_DOC }) resource?: CustomFieldResource,
  ) {
    return deletePayload('CustomFieldGroup', () => new CustomFieldGroupService(ctx).delete(id, resource));
  }

  @Mutation(() => CreateCustomFieldEntryPayload, { description: `Adds an entry to a dropdown or multi-select field. ${ADMINS_ONLY}` })
  createCustomFieldEntry(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CUSTOM_FIELD_ENTRY.CreateInput, { description: 'The new entry.' }) input: CustomFieldEntryInput,
  ) {
    return recordPayload('customFieldEntry', () => new CustomFieldEntryService(ctx).create(input));
  }

  @Mutation(() => UpdateCustomFieldEntryPayload, {
    description: `Changes a custom field entry: only the fields given. A missing entry is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  updateCustomFieldEntry(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The entry's databaseId." }) id: number,
    @Arg('input', () => CUSTOM_FIELD_ENTRY.UpdateInput, { description: 'The changes.' }) input: CustomFieldEntryInput,
  ) {
    return recordPayload('customFieldEntry', () => new CustomFieldEntryService(ctx).update(id, input));
  }

  @Mutation(() => DeleteCustomFieldEntryPayload, {
    description: `Deletes a custom field entry and removes it from every record's value (a dropdown loses its value, a multi-select keeps its other entries). A missing entry is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  deleteCustomFieldEntry(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The entry's databaseId." }) id: number) {
    return deletePayload('CustomFieldEntry', () => new CustomFieldEntryService(ctx).delete(id));
  }
}

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
