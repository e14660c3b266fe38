import { Issues, NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { Connection, ConnectionReads, Paging } from '../../graphql/connection';
import { findVisible, listConnection, loadForWrite, removeVisible, scopeOf, type Records } from '../common/resource';
import { accountWide, checkName, checkRange, requireAdmin, writeUnique } from '../common/admin';
import type { CustomFieldResource } from './custom-field.enums';
import { CUSTOM_FIELD_GROUP_FIELDS, MAX_CUSTOM_FIELD_NAME, type CustomFieldGroupInput } from './custom-field.fields';
import { CustomFieldGroup } from './custom-field-group.entity';
import { CUSTOM_FIELDS } from './custom-field.service';

export const CUSTOM_FIELD_GROUPS_PAGE_SIZE = 200;

export const CUSTOM_FIELD_GROUPS: Records<CustomFieldGroup> = {
  entity: CustomFieldGroup,
  alias: 'cg',
  name: 'CustomFieldGroup',
  visibility: accountWide<CustomFieldGroup>(),
};

/** The kit copies `resource` on create; the service applies name and position. */
const WRITES = CUSTOM_FIELD_GROUP_FIELDS.writes(['name', 'position']);

const INT_MAX = 2_147_483_647;
/** Most groups one resource of an account has. */
const MAX_GROUPS_PER_RESOURCE = 100;

/**
 * Custom field groups (DECISIONS: Admin surface: `/admin/custom_field_groups.json`): every user of
 * the account reads them, admins change them. Deleting a group leaves its fields ungrouped (their
 * foreign key is `on delete set null`).
 */
export class CustomFieldGroupService {
  constructor(private readonly ctx: RequestContext) {}

  list(
    filter: InstanceType<typeof CUSTOM_FIELD_GROUP_FIELDS.Filter> | null | undefined,
    orderBy: ReadonlyArray<InstanceType<typeof CUSTOM_FIELD_GROUP_FIELDS.Order>> | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
    resource?: CustomFieldResource | null,
  ): Promise<Connection<CustomFieldGroup>> {
    const condition = CUSTOM_FIELD_GROUP_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, CUSTOM_FIELD_GROUPS).add(condition.sql, ...condition.params);
    if (resource) where.add('cg.resource = ?', resource);
    return listConnection(this.ctx, CUSTOM_FIELD_GROUPS, where, CUSTOM_FIELD_GROUP_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  async find(id: number, resource?: CustomFieldResource | null): Promise<CustomFieldGroup | null> {
    const group = await findVisible(this.ctx, CUSTOM_FIELD_GROUPS, id);
    return group && (resource == null || group.resource === resource) ? group : null;
  }

  create(input: CustomFieldGroupInput): Promise<CustomFieldGroup> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const issues = new Issues();
      const resource = input.resource ?? null;
      if (resource === null) issues.blank('resource');
      const name = checkName(input.name, issues, 'name', MAX_CUSTOM_FIELD_NAME);
      checkRange(input.position, 'position', 0, INT_MAX, issues);
      const group = em.create(CustomFieldGroup, { account: this.ctx.viewer.accountId, resource: resource!, name: name ?? '' }, { persist: false });
      WRITES.assign(em, group, input, issues, true);
      if (resource !== null) {
        if (name !== null && (await this.nameTaken(resource, name, null))) issues.taken('name');
        if ((await this.stat(resource)).count >= MAX_GROUPS_PER_RESOURCE)
          issues.invalid('resource', `has too many custom field groups (maximum is ${MAX_GROUPS_PER_RESOURCE})`);
      }
      issues.throwIfAny();
      group.position = input.position ?? (await this.stat(resource!)).next;
      em.persist(group);
      await em.flush();
      return group;
    });
  }

  update(id: number, input: CustomFieldGroupInput, resource?: CustomFieldResource | null): Promise<CustomFieldGroup> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const group = await this.get(id, resource);
      const issues = new Issues();
      const name = input.name !== undefined ? checkName(input.name, issues, 'name', MAX_CUSTOM_FIELD_NAME) : null;
      if (input.position === null) issues.blank('position');
      checkRange(input.position, 'position', 0, INT_MAX, issues);
      if (name !== null && (await this.nameTaken(group.resource, name, group.id))) issues.taken('name');
      issues.throwIfAny();
      if (name !== null) group.name = name;
      if (input.position != null) group.position = input.position;
      group.updatedAt = new Date();
      await em.flush();
      return group;
    });
  }

  async delete(id: number, resource?: CustomFieldResource | null): Promise<number> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    if (resource != null) await this.get(id, resource);
    return removeVisible(this.ctx, CUSTOM_FIELD_GROUPS, id);
  }

  private async get(id: number, resource?: CustomFieldResource | null): Promise<CustomFieldGroup> {
    const group = await loadForWrite(this.ctx, CUSTOM_FIELD_GROUPS, id);
    if (resource != null && group.resource !== resource) throw new NotFoundError('CustomFieldGroup', id);
    return group;
  }

  private async nameTaken(resource: CustomFieldResource, name: string, exceptId: number | null): Promise<boolean> {
    const rows = await this.ctx.em.execute<Array<{ id: number }>>(
      'select id from "custom_field_groups" where account_id = ? and resource = ? and lower(name) = lower(?) and id <> ? limit 1',
      [this.ctx.viewer.accountId, resource, name, exceptId ?? 0],
      'all',
    );
    return rows.length > 0;
  }

  /** How many groups the resource has, and the position after the last. */
  private async stat(resource: CustomFieldResource): Promise<{ count: number; next: number }> {
    const [row] = await this.ctx.em.execute<Array<{ n: string; next: number }>>(
      'select count(*) as n, least(coalesce(max(position)::bigint + 1, 0), 2147483647)::int as next from "custom_field_groups" where account_id = ? and resource = ?',
      [this.ctx.viewer.accountId, resource],
      'all',
    );
    return { count: Number(row.n), next: Number(row.next) };
  }
}
