import type { RequestContext } from '../../context/context';
import { Once, sooner } from '../../context/loaders';
import type { RelationPreload } from '../../context/relations';
import { hydrate } from '../../db/list-query';
import { CustomField, type CustomFieldResource } from './custom-field.entity';
import { presentCustomFields, type CustomFieldValue } from './custom-field-values';

/** The account's custom-field definitions of one resource, loaded once per context. */
export function customFieldDefs(ctx: RequestContext, resource: CustomFieldResource): Once<CustomField[]> {
  return ctx.loaders.memo(`custom-fields:${resource}`, () =>
    new Once(async () =>
      hydrate(ctx.em, CustomField, await ctx.em.execute<Record<string, unknown>[]>('select * from "custom_fields" where account_id = ? and resource = ? order by position, id', [ctx.viewer.accountId, resource], 'all')),
    ),
  );
}

/** The `customFields` field of a record: every definition of its resource with the record's values. */
export function customFieldsField(ctx: RequestContext, resource: CustomFieldResource, values: Record<string, unknown>): CustomFieldValue[] | Promise<CustomFieldValue[]> {
  const defs = customFieldDefs(ctx, resource);
  return sooner(defs.settled(), () => defs.load(), (d) => presentCustomFields(d, values));
}

/** Preloads a resource's definitions for a page whose `customFields` are selected. */
export function customFieldsPreload(resource: CustomFieldResource): RelationPreload<unknown> {
  return { fields: ['customFields'], load: (ctx) => customFieldDefs(ctx, resource).load() };
}
