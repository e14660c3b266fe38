import type { EntityManager } from '@mikro-orm/postgresql';
import { Issues, NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { Connection, ConnectionReads, Paging } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';
import { findVisible, listConnection, loadForWrite, scopeOf, type Records } from '../common/resource';
import { accountWide, checkName, checkRange, requireAdmin, writeUnique } from '../common/admin';
import { CustomField } from './custom-field.entity';
import { CustomFieldResource, ENTRY_KINDS } from './custom-field.enums';
import { CUSTOM_FIELD_LABEL_FIELDS, MAX_CUSTOM_FIELD_NAME, type CustomFieldLabelInput } from './custom-field.fields';
import { CustomFieldGroup } from './custom-field-group.entity';

/** DECISIONS (Paging): admin lists default to 200 entries a page. */
export const CUSTOM_FIELDS_PAGE_SIZE = 200;

export const CUSTOM_FIELD_LABELS: Records<CustomField> = {
  entity: CustomField,
  alias: 'cf',
  name: 'CustomFieldLabel',
  visibility: accountWide<CustomField>(),
};

/** The kit copies `resource` on create; the service applies the rest. */
const WRITES = CUSTOM_FIELD_LABEL_FIELDS.writes(['name', 'kind', 'isRequired', 'position', 'groupId']);

/** Where each resource's records keep their values (`custom_fields` jsonb). */
export const RECORD_TABLES: Readonly<Record<CustomFieldResource, string>> = {
  [CustomFieldResource.PERSON]: 'people',
  [CustomFieldResource.COMPANY]: 'companies',
  [CustomFieldResource.DEAL]: 'deals',
};

export const CUSTOM_FIELDS = 'custom fields';
const INT_MAX = 2_147_483_647;
/** Most custom fields one resource of an account has (each is a key of every record's values). */
export const MAX_FIELDS_PER_RESOURCE = 200;

/** Whether any record of the field's resource holds a value for it (null, "" and [] are none). */
export async function fieldHasValues(em: EntityManager, field: Pick<CustomField, 'id' | 'resource' | 'label'>, accountId: number): Promise<boolean> {
  const rows = await em.execute<Array<{ one: number }>>(
    `select 1 as one from "${RECORD_TABLES[field.resource]}" where account_id = ? and custom_fields -> ?::text is not null and custom_fields -> ?::text not in ('null'::jsonb, '[]'::jsonb, '""'::jsonb) limit 1`,
    [accountId, field.label, field.label],
    'all',
  );
  return rows.length > 0;
}

/**
 * Custom fields, v3's custom field labels (DECISIONS: Admin surface): every user of the account
 * reads them; admins change them. `resource`, where a caller names it (the v3 routes of one
 * resource), restricts a lookup or write to that resource's fields: another's is answered like a
 * missing one. Deleting a field removes its values from every record (same transaction); its kind
 * changes only while no record has a value for it.
 */
export class CustomFieldService {
  constructor(private readonly ctx: RequestContext) {}

  list(
    filter: InstanceType<typeof CUSTOM_FIELD_LABEL_FIELDS.Filter> | null | undefined,
    orderBy: ReadonlyArray<InstanceType<typeof CUSTOM_FIELD_LABEL_FIELDS.Order>> | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
    resource?: CustomFieldResource | null,
  ): Promise<Connection<CustomField>> {
    const condition = CUSTOM_FIELD_LABEL_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, CUSTOM_FIELD_LABELS).add(condition.sql, ...condition.params);
    if (resource) where.add('cf.resource = ?', resource);
    return listConnection(this.ctx, CUSTOM_FIELD_LABELS, where, CUSTOM_FIELD_LABEL_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  async find(id: number, resource?: CustomFieldResource | null): Promise<CustomField | null> {
    const field = await findVisible(this.ctx, CUSTOM_FIELD_LABELS, id);
    return field && (resource == null || field.resource === resource) ? field : null;
  }

  create(input: CustomFieldLabelInput): Promise<CustomField> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const issues = new Issues();
      const resource = input.resource ?? null;
      if (resource === null) issues.blank('resource');
      const name = checkName(input.name, issues, 'name', MAX_CUSTOM_FIELD_NAME);
      if (input.kind == null) issues.blank('kind');
      checkRange(input.position, 'position', 0, INT_MAX, issues);
      const field = em.create(
        CustomField,
        { account: this.ctx.viewer.accountId, resource: resource!, kind: input.kind!, name: name ?? '' },
        { persist: false },
      );
      WRITES.assign(em, field, input, issues, true);
      if (resource !== null) {
        if (name !== null && (await this.nameTaken(resource, name, null))) issues.taken('name');
        await this.applyGroup(field, resource, input.groupId, issues);
        if ((await this.count(resource)) >= MAX_FIELDS_PER_RESOURCE)
          issues.invalid('resource', `has too many custom fields (maximum is ${MAX_FIELDS_PER_RESOURCE})`);
      }
      issues.throwIfAny();
      field.isRequired = input.isRequired === true;
      field.position = input.position ?? (await this.nextPosition(resource!));
      em.persist(field);
      await em.flush();
      return field;
    });
  }

  update(id: number, input: CustomFieldLabelInput, resource?: CustomFieldResource | null): Promise<CustomField> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const field = await this.get(id, resource);
      const issues = new Issues();
      const name = input.name !== undefined ? checkName(input.name, issues, 'name', MAX_CUSTOM_FIELD_NAME) : null;
      if (input.kind === null) issues.blank('kind');
      if (input.position === null) issues.blank('position');
      checkRange(input.position, 'position', 0, INT_MAX, issues);
      if (name !== null && (await this.nameTaken(field.resource, name, field.id))) issues.taken('name');
      await this.applyGroup(field, field.resource, input.groupId, issues);
      const kind = input.kind ?? field.kind;
      if (kind !== field.kind && (await fieldHasValues(em, field, this.ctx.viewer.accountId))) {
        issues.invalid(
          'kind',
          `can't be changed from ${field.kind} to ${kind} while records have a value for the field "${field.name}": clear those values first`,
        );
      }
      issues.throwIfAny();
      if (name !== null) field.name = name;
      if (kind !== field.kind) {
        // Entries mean nothing to other kinds (no record holds them: checked above).
        if (ENTRY_KINDS.has(field.kind) && !ENTRY_KINDS.has(kind))
          await em.execute('delete from "custom_field_entries" where custom_field_id = ? and account_id = ?', [field.id, this.ctx.viewer.accountId], 'run');
        field.kind = kind;
      }
      // null means "not required", as false.
      if (input.isRequired !== undefined) field.isRequired = input.isRequired === true;
      if (input.position != null) field.position = input.position;
      field.updatedAt = new Date();
      await em.flush();
      return field;
    });
  }

  /** Its values go with it: the key is removed from every record of its resource, in the same transaction; its entries cascade. */
  delete(id: number, resource?: CustomFieldResource | null): Promise<number> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const field = await this.get(id, resource);
      const accountId = this.ctx.viewer.accountId;
      await em.execute(
        `update "${RECORD_TABLES[field.resource]}" set custom_fields = custom_fields - ?::text where account_id = ? and jsonb_exists(custom_fields, ?::text)`,
        [field.label, accountId, field.label],
        'run',
      );
      await em.execute('delete from "custom_fields" where id = ? and account_id = ?', [field.id, accountId], 'run');
      em.getUnitOfWork().unsetIdentity(field);
      return id;
    });
  }

  /** A field of another account (or, when `resource` is given, of another resource) is answered exactly like a missing one. */
  private async get(id: number, resource?: CustomFieldResource | null): Promise<CustomField> {
    const field = await loadForWrite(this.ctx, CUSTOM_FIELD_LABELS, id);
    if (resource != null && field.resource !== resource) throw new NotFoundError('CustomFieldLabel', id);
    return field;
  }

  /** A group of the account and of the same resource; null clears it. */
  private async applyGroup(field: CustomField, resource: CustomFieldResource, groupId: number | null | undefined, issues: Issues): Promise<void> {
    if (groupId === undefined) return;
    if (groupId === null) {
      field.group = null;
      return;
    }
    const group = isValidId(groupId) ? await this.ctx.em.findOne(CustomFieldGroup, { id: groupId, account: this.ctx.viewer.accountId }) : null;
    if (!group) issues.missing('groupId');
    else if (group.resource !== resource) issues.invalid('groupId', `is a group of ${group.resource} fields, not of ${resource} fields`);
    else field.group = group;
  }

  private async nameTaken(resource: CustomFieldResource, name: string, exceptId: number | null): Promise<boolean> {
    const rows = await this.ctx.em.execute<Array<{ id: number }>>(
      'select id from "custom_fields" where account_id = ? and resource = ? and lower(name) = lower(?) and id <> ? limit 1',
      [this.ctx.viewer.accountId, resource, name, exceptId ?? 0],
      'all',
    );
    return rows.length > 0;
  }

  private async count(resource: CustomFieldResource): Promise<number> {
    const [{ n }] = await this.ctx.em.execute<Array<{ n: string }>>(
      'select count(*) as n from "custom_fields" where account_id = ? and resource = ?',
      [this.ctx.viewer.accountId, resource],
      'all',
    );
    return Number(n);
  }

  private async nextPosition(resource: CustomFieldResource): Promise<number> {
    const [{ next }] = await this.ctx.em.execute<Array<{ next: number }>>(
      'select least(coalesce(max(position)::bigint + 1, 0), 2147483647)::int as next from "custom_fields" where account_id = ? and resource = ?',
      [this.ctx.viewer.accountId, resource],
      'all',
    );
    return Number(next);
  }
}
