import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { Once, sooner } from '../../context/loaders';
import type { RelationPreload } from '../../graphql/relations';
import { hydrate, tableOf } from '../../db/list-query';
import { CustomField } from './custom-field.entity';
import type { CustomFieldResource } from './custom-field.enums';
import { CustomFieldEntry } from './custom-field-entry.entity';
import { presentCustomFields, type CustomFieldValue } from './custom-field-values';

/** The most entries one dropdown or multi-select field holds (`CustomFieldLabel.entries` declares it as its bound). */
export const MAX_ENTRIES_PER_FIELD = 500;

interface EntryJson {
  readonly id: number;
  readonly name: string;
  readonly position: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A read-only projection of an entry, as the read path makes them (the entity's prototype, relations as `{id}` stubs). */
function entryOf(raw: EntryJson, field: CustomField, accountId: number): CustomFieldEntry {
  return Object.assign(Object.create(CustomFieldEntry.prototype) as CustomFieldEntry, {
    id: raw.id,
    name: raw.name,
    position: raw.position,
    createdAt: new Date(raw.created_at),
    updatedAt: new Date(raw.updated_at),
    customField: { id: field.id } as CustomField,
    account: { id: accountId },
  });
}

/**
 * The account's custom-field definitions of one resource, in position order, each with its
 * entries (`entries`, in their order): one statement, loaded once per context (the loader cache
 * is dropped after every mutation). Other modules read definitions through this (values, filters,
 * totals): each has `id`, `label` (custom_label_<id>), `name`, `kind`, `isRequired` and `entries`
 * ({id, name, position}).
 */
export function customFieldDefs(ctx: RequestContext, resource: CustomFieldResource): Once<CustomField[]> {
  return ctx.loaders.memo(
    `custom-fields:${resource}`,
    () =>
      new Once(async () => {
        const accountId = ctx.viewer.accountId;
        const rows = await ctx.em.execute<Array<Record<string, unknown> & { entries_json: EntryJson[] | null }>>(
          `select cf.*, (select json_agg(json_build_object('id', e.id, 'name', e.name, 'position', e.position, 'created_at', e.created_at, 'updated_at', e.updated_at) order by e.position, e.id)
                       from "custom_field_entries" e where e.custom_field_id = cf.id) as entries_json
         from "custom_fields" cf where cf.account_id = ? and cf.resource = ? order by cf.position, cf.id`,
          [accountId, resource],
          'all',
        );
        const defs = hydrate(ctx.em, CustomField, rows);
        defs.forEach((def, i) => (def.entries = (rows[i].entries_json ?? []).map((e) => entryOf(e, def, accountId))));
        return defs;
      }),
  );
}

/** The `customFields` field of a record: every definition of its resource with the record's values. */
export function customFieldsField(
  ctx: RequestContext,
  resource: CustomFieldResource,
  values: Record<string, unknown>,
): CustomFieldValue[] | Promise<CustomFieldValue[]> {
  const defs = customFieldDefs(ctx, resource);
  const decimals = ctx.viewer.currency.decimals;
  return sooner(
    defs.settled(),
    () => defs.load(),
    (d) => presentCustomFields(d, values, decimals),
  );
}

/** Preloads a resource's definitions for a page whose `customFields` are selected. */
export function customFieldsPreload(resource: CustomFieldResource): RelationPreload<unknown> {
  return { fields: ['customFields'], load: (ctx) => customFieldDefs(ctx, resource).load() };
}

/**
 * The entries of fields by field id, in their order: one statement per batch (a page of fields
 * asking for their entries), within the account.
 */
export function entriesOfField(ctx: RequestContext): DataLoader<number, CustomFieldEntry[]> {
  return ctx.loaders.memo(
    'custom-field-entries',
    () =>
      new DataLoader<number, CustomFieldEntry[]>(async (ids) => {
        const { table, columns } = tableOf(ctx.em, CustomFieldEntry);
        const rows = await ctx.em.execute<Record<string, unknown>[]>(
          `select ${columns.join(', ')} from "${table}" where account_id = ? and custom_field_id = any(?::int[]) order by custom_field_id, position, id`,
          [ctx.viewer.accountId, `{${ids.map((id) => Math.trunc(id)).join(',')}}`],
          'all',
        );
        const byField = new Map<number, CustomFieldEntry[]>();
        for (const entry of hydrate(ctx.em, CustomFieldEntry, rows)) {
          const list = byField.get(entry.customField.id) ?? [];
          list.push(entry);
          byField.set(entry.customField.id, list);
        }
        return ids.map((id) => (byField.get(id) ?? []).slice(0, MAX_ENTRIES_PER_FIELD));
      }),
  );
}

/** A field's entries: those loaded with the definitions, else through the batch loader. */
export function entriesField(ctx: RequestContext, field: CustomField): CustomFieldEntry[] | Promise<CustomFieldEntry[]> {
  return field.entries ?? entriesOfField(ctx).load(field.id);
}
