import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { hydrate } from '../db/list-query';
import { Company } from '../modules/companies/company.entity';
import { CustomField, type CustomFieldResource } from '../modules/custom-fields/custom-field.entity';
import { ListItem } from '../modules/lists/list-item.entity';
import { User } from '../modules/users/user.entity';
import type { Viewer } from './viewer';

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
  // What has already arrived, so a field resolver can answer without a promise (see `settled`).
  private usersSettled: Map<number, User> | null = null;
  private readonly companiesSettled = new Map<number, Company | null>();
  private readonly listItemsSettled = new Map<number, ListItem | null>();
  private readonly customFieldsSettled = new Map<CustomFieldResource, CustomField[]>();

  constructor(
    private readonly em: EntityManager,
    private readonly viewer: Viewer,
  ) {}

  private async select<T extends object>(entity: EntityName<T>, sql: string, params: unknown[]): Promise<T[]> {
    return hydrate(this.em, entity, await this.em.getConnection().execute<Record<string, unknown>[]>(sql, params, 'all'));
  }

  /** Rows of `table` in the viewer's account with the given ids, in key order (null when absent). */
  private byIds<T extends { id: number }>(entity: EntityName<T>, table: string, settled: Map<number, T | null>): DataLoader<number, T | null> {
    return new DataLoader(async (ids: readonly number[]) => {
      const rows = await this.select(entity, `select * from "${table}" where account_id = ? and id = any(?::int[])`, [this.viewer.accountId, `{${ids.join(',')}}`]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id) ?? null;
        settled.set(id, row);
        return row;
      });
    });
  }

  /** All users of the account in one query: accounts have few users, and owners repeat on every row. */
  users(): Promise<Map<number, User>> {
    this.usersOfAccount ??= this.select(User, USERS_SQL, [this.viewer.accountId]).then(
      (users) => (this.usersSettled = new Map(users.map((u) => [u.id, u]))),
    );
    return this.usersOfAccount;
  }

  async user(id: number | null | undefined): Promise<User | null> {
    if (id == null) return null;
    return (await this.users()).get(id) ?? null;
  }

  company(id: number | null | undefined): Promise<Company | null> {
    if (id == null) return Promise.resolve(null);
    this.companiesLoader ??= this.byIds(Company, 'companies', this.companiesSettled);
    return this.companiesLoader.load(id);
  }

  listItem(id: number | null | undefined): Promise<ListItem | null> {
    if (id == null) return Promise.resolve(null);
    this.listItemsLoader ??= this.byIds(ListItem, 'list_items', this.listItemsSettled);
    return this.listItemsLoader.load(id);
  }

  async listItems(ids: readonly number[]): Promise<ListItem[]> {
    const items = await Promise.all(ids.map((id) => this.listItem(id)));
    return items.filter((i): i is ListItem => i !== null);
  }

  customFields(resource: CustomFieldResource): Promise<CustomField[]> {
    let pending = this.customFieldsByResource.get(resource);
    if (!pending) {
      pending = this.select(CustomField, 'select * from "custom_fields" where account_id = ? and resource = ? order by position, id', [this.viewer.accountId, resource]).then((defs) => {
        this.customFieldsSettled.set(resource, defs);
        return defs;
      });
      this.customFieldsByResource.set(resource, pending);
    }
    return pending;
  }

  /**
   * Values already loaded, read synchronously; `undefined` means not loaded (yet). A list that
   * preloads its page's relations lets every row's field resolvers answer without a promise each.
   */
  readonly settled = {
    users: (): Map<number, User> | undefined => this.usersSettled ?? undefined,
    user: (id: number | null | undefined): User | null | undefined => (id == null ? null : this.usersSettled ? (this.usersSettled.get(id) ?? null) : undefined),
    company: (id: number | null | undefined): Company | null | undefined => (id == null ? null : this.companiesSettled.get(id)),
    listItem: (id: number | null | undefined): ListItem | null | undefined => (id == null ? null : this.listItemsSettled.get(id)),
    listItems: (ids: readonly number[]): ListItem[] | undefined => {
      const items: ListItem[] = [];
      for (const id of ids) {
        const item = this.listItemsSettled.get(id);
        if (item === undefined) return undefined;
        if (item) items.push(item);
      }
      return items;
    },
    customFields: (resource: CustomFieldResource): CustomField[] | undefined => this.customFieldsSettled.get(resource),
  };

  /** Loads, in one batch per kind, what a page of rows will ask for. */
  async preload(wanted: { users?: boolean; companyIds?: Iterable<number | null | undefined>; listItemIds?: Iterable<number | null | undefined>; customFields?: CustomFieldResource }): Promise<void> {
    const pending: Promise<unknown>[] = [];
    if (wanted.users) pending.push(this.users());
    for (const id of new Set(wanted.companyIds ?? [])) if (id != null) pending.push(this.company(id));
    for (const id of new Set(wanted.listItemIds ?? [])) if (id != null) pending.push(this.listItem(id));
    if (wanted.customFields) pending.push(this.customFields(wanted.customFields));
    await Promise.all(pending);
  }

  /** After a write, cached reads may be stale. */
  clear(): void {
    this.usersOfAccount = null;
    this.usersSettled = null;
    this.customFieldsByResource.clear();
    this.customFieldsSettled.clear();
    this.companiesSettled.clear();
    this.listItemsSettled.clear();
    this.companiesLoader?.clearAll();
    this.listItemsLoader?.clearAll();
  }
}

/**
 * A field resolver's answer: synchronous when the value has settled, else through the loader.
 * Saves a promise (and the executor's async bookkeeping) per field per row on preloaded pages.
 */
export function sooner<T, R = T>(settled: T | undefined, load: () => Promise<T>, map?: (value: T) => R): R | Promise<R> {
  if (settled !== undefined) return map ? map(settled) : (settled as unknown as R);
  return map ? load().then(map) : (load() as unknown as Promise<R>);
}
