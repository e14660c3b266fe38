import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { hydrate } from '../db/list-query';
import { Company } from '../modules/companies/company.entity';
import { CustomField, type CustomFieldResource } from '../modules/custom-fields/custom-field.entity';
import { ListItem } from '../modules/lists/list-item.entity';
import { User } from '../modules/users/user.entity';
import type { Viewer } from './context';

// Every column but the key hash: credentials are never loaded where they are not needed.
const USERS_SQL = `select id, account_id, email, first_name, last_name, time_zone, is_admin, visibility, created_at, updated_at
  from "users" where account_id = ? order by id`;

/**
 * Every relation resolves through one of these: one query per batch, results in key order,
 * tenancy applied inside. Convenience objects (id and name) of related records are shown
 * whatever the viewer's visibility (issue 2 §6), so these loaders scope by account only.
 * Statements are written out (no query building per request) and hydrated read-only.
 */
export class Loaders {
  private usersOfAccount: Promise<Map<number, User>> | null = null;
  private readonly customFieldsByResource = new Map<CustomFieldResource, Promise<CustomField[]>>();
  private companiesLoader: DataLoader<number, Company | null> | null = null;
  private listItemsLoader: DataLoader<number, ListItem | null> | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly viewer: Viewer,
  ) {}

  private async select<T extends object>(entity: EntityName<T>, sql: string, params: unknown[]): Promise<T[]> {
    return hydrate(this.em, entity, await this.em.getConnection().execute<Record<string, unknown>[]>(sql, params, 'all'));
  }

  /** Rows of `table` in the viewer's account with the given ids, in key order (null when absent). */
  private byIds<T extends { id: number }>(entity: EntityName<T>, table: string): DataLoader<number, T | null> {
    return new DataLoader(async (ids: readonly number[]) => {
      const rows = await this.select(entity, `select * from "${table}" where account_id = ? and id = any(?::int[])`, [this.viewer.accountId, `{${ids.join(',')}}`]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  /** All users of the account in one query: accounts have few users, and owners repeat on every row. */
  users(): Promise<Map<number, User>> {
    this.usersOfAccount ??= this.select(User, USERS_SQL, [this.viewer.accountId]).then(
      (users) => new Map(users.map((u) => [u.id, u])),
    );
    return this.usersOfAccount;
  }

  async user(id: number | null | undefined): Promise<User | null> {
    if (id == null) return null;
    return (await this.users()).get(id) ?? null;
  }

  company(id: number | null | undefined): Promise<Company | null> {
    if (id == null) return Promise.resolve(null);
    this.companiesLoader ??= this.byIds(Company, 'companies');
    return this.companiesLoader.load(id);
  }

  listItem(id: number | null | undefined): Promise<ListItem | null> {
    if (id == null) return Promise.resolve(null);
    this.listItemsLoader ??= this.byIds(ListItem, 'list_items');
    return this.listItemsLoader.load(id);
  }

  async listItems(ids: readonly number[]): Promise<ListItem[]> {
    const items = await Promise.all(ids.map((id) => this.listItem(id)));
    return items.filter((i): i is ListItem => i !== null);
  }

  customFields(resource: CustomFieldResource): Promise<CustomField[]> {
    let pending = this.customFieldsByResource.get(resource);
    if (!pending) {
      pending = this.select(CustomField, 'select * from "custom_fields" where account_id = ? and resource = ? order by position, id', [this.viewer.accountId, resource]);
      this.customFieldsByResource.set(resource, pending);
    }
    return pending;
  }

  /** After a write, cached reads may be stale. */
  clear(): void {
    this.usersOfAccount = null;
    this.customFieldsByResource.clear();
    this.companiesLoader?.clearAll();
    this.listItemsLoader?.clearAll();
  }
}
