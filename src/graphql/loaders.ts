import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../modules/companies/company.entity';
import { CustomField, type CustomFieldResource } from '../modules/custom-fields/custom-field.entity';
import { ListItem } from '../modules/lists/list-item.entity';
import { User } from '../modules/users/user.entity';
import type { Viewer } from './context';

/**
 * Every relation resolves through one of these: one query per batch, results in key order,
 * tenancy applied inside. Convenience objects (id and name) of related records are shown
 * whatever the viewer's visibility (issue 2 §6), so these loaders scope by account only.
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

  /** All users of the account in one query: accounts have few users, and owners repeat on every row. */
  users(): Promise<Map<number, User>> {
    this.usersOfAccount ??= this.em
      .find(User, { account: this.viewer.accountId }, { orderBy: { id: 'asc' } })
      .then((users) => new Map(users.map((u) => [u.id, u])));
    return this.usersOfAccount;
  }

  async user(id: number | null | undefined): Promise<User | null> {
    if (id == null) return null;
    return (await this.users()).get(id) ?? null;
  }

  company(id: number | null | undefined): Promise<Company | null> {
    if (id == null) return Promise.resolve(null);
    this.companiesLoader ??= new DataLoader(async (ids: readonly number[]) => {
      const rows = await this.em.find(Company, { id: { $in: [...ids] }, account: this.viewer.accountId });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    return this.companiesLoader.load(id);
  }

  listItem(id: number | null | undefined): Promise<ListItem | null> {
    if (id == null) return Promise.resolve(null);
    this.listItemsLoader ??= new DataLoader(async (ids: readonly number[]) => {
      const rows = await this.em.find(ListItem, { id: { $in: [...ids] }, account: this.viewer.accountId });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    return this.listItemsLoader.load(id);
  }

  async listItems(ids: readonly number[]): Promise<ListItem[]> {
    const items = await Promise.all(ids.map((id) => this.listItem(id)));
    return items.filter((i): i is ListItem => i !== null);
  }

  customFields(resource: CustomFieldResource): Promise<CustomField[]> {
    let pending = this.customFieldsByResource.get(resource);
    if (!pending) {
      pending = this.em.find(CustomField, { account: this.viewer.accountId, resource }, { orderBy: { position: 'asc', id: 'asc' } });
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
