import { Issues, ValidationFailed } from '../../common/errors';
import { orderKeysOf, type OrderColumn, type OrderKey } from '../../db/keyset';
import type { Connection, ConnectionReads, Paging } from '../../graphql/connection';
import { compileFilter, customFieldConditions, type CustomFieldFilter, type FilterFields } from '../../graphql/filters';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { ownedRecords } from '../../context/visibility';
import { assignFields, blank } from '../common/assign';
import { dropUnstorableDates, withoutNul } from '../common/input';
import { findVisible, listConnection, loadForWrite, removeVisible, scopeOf, setRelation, type ResourceDef } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';
import { mergeCustomFields } from '../custom-fields/custom-field-values';
import { ownerMailOwed, recordMail } from '../outbox/outbox.service';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { Company } from './company.entity';
import { CompanyOrderField, type CompanyCreateOptions, type CompanyFilter, type CompanyInput, type CompanyOrder, type CompanyUpdateOptions } from './company.inputs';

const TEXT_FIELDS = [
  'name', 'description', 'email', 'website', 'fax', 'address1', 'address2', 'city', 'state', 'postalCode', 'country',
  'phone1', 'phone2', 'phone3', 'phone4', 'phone1Desc', 'phone2Desc', 'phone3Desc', 'phone4Desc', 'imageUrl', 'createdAt',
] as const;

/** How each filter field reads the row; startsWith uses the migration's lower(..) text_pattern_ops indexes. */
export const COMPANY_FILTER_FIELDS: FilterFields<CompanyFilter> = {
  databaseId: { kind: 'id', sql: 'c.id' },
  name: { kind: 'string', sql: 'c.name' },
  description: { kind: 'string', sql: 'c.description', startsWithSql: 'lower(left(c.description, 200))' },
  email: { kind: 'string', sql: 'c.email' },
  website: { kind: 'string', sql: 'c.web' },
  anyPhone: { kind: 'string', sql: ['c.phone1', 'c.phone2', 'c.phone3', 'c.phone4'] },
  fax: { kind: 'string', sql: 'c.fax' },
  address1: { kind: 'string', sql: 'c.address1' },
  address2: { kind: 'string', sql: 'c.address2' },
  city: { kind: 'string', sql: 'c.city' },
  state: { kind: 'string', sql: 'c.state' },
  postalCode: { kind: 'string', sql: 'c.postal_code' },
  country: { kind: 'string', sql: 'c.country' },
  ownerId: { kind: 'id', sql: 'c.owner_id' },
  createdAt: { kind: 'datetime', sql: 'c.created_at' },
  updatedAt: { kind: 'datetime', sql: 'c.updated_at' },
  importedAt: { kind: 'datetime', sql: 'c.imported_at' },
  customFields: { kind: 'custom', build: (value: CustomFieldFilter[], path: string) => customFieldConditions('c.custom_fields', value, path) },
};

const ORDER_KEYS: Record<CompanyOrderField, OrderColumn> = {
  [CompanyOrderField.ID]: { sql: 'c.id', nullable: false, type: 'int' },
  [CompanyOrderField.NAME]: { sql: 'lower(c.name)', nullable: false, type: 'text' },
  [CompanyOrderField.CITY]: { sql: 'c.city', nullable: true, type: 'text' },
  [CompanyOrderField.STATE]: { sql: 'c.state', nullable: true, type: 'text' },
  [CompanyOrderField.COUNTRY]: { sql: 'c.country', nullable: true, type: 'text' },
  [CompanyOrderField.POSTAL_CODE]: { sql: 'c.postal_code', nullable: true, type: 'text' },
  [CompanyOrderField.EMAIL]: { sql: 'c.email', nullable: true, type: 'text' },
  [CompanyOrderField.OWNER_ID]: { sql: 'c.owner_id', nullable: true, type: 'int' },
  [CompanyOrderField.CREATED_AT]: { sql: 'c.created_at', nullable: false, type: 'timestamp' },
  [CompanyOrderField.UPDATED_AT]: { sql: 'c.updated_at', nullable: false, type: 'timestamp' },
};

const DEFAULT_ORDER: readonly OrderKey[] = [{ ...ORDER_KEYS[CompanyOrderField.NAME], desc: false }];

const orderKeys = (orderBy: readonly CompanyOrder[] | null | undefined): readonly OrderKey[] => orderKeysOf(orderBy, ORDER_KEYS, DEFAULT_ORDER);

export const COMPANIES: ResourceDef<Company> = { entity: Company, alias: 'c', name: 'Company', visibility: ownedRecords<Company>() };

/** Companies: tenancy and visibility on every read and write (issue 2 §6). */
export class CompanyService {
  constructor(private readonly ctx: RequestContext) {}

  /** A page of the companies the viewer may see that match `filter`, in `orderBy` order. */
  list(filter: CompanyFilter | null | undefined, orderBy: readonly CompanyOrder[] | null | undefined, paging: Paging, reads?: ConnectionReads): Promise<Connection<Company>> {
    const condition = compileFilter(filter, COMPANY_FILTER_FIELDS);
    const where = scopeOf(this.ctx, COMPANIES).add(condition.sql, ...condition.params);
    return listConnection(this.ctx, COMPANIES, where, orderKeys(orderBy), paging, reads);
  }

  get(id: number): Promise<Company | null> {
    return findVisible(this.ctx, COMPANIES, id);
  }

  create(input: CompanyInput, options?: CompanyCreateOptions): Promise<Company> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      if (typeof input.name === 'string') input.name = withoutNul(input.name); // `\u0000` alone is blank
      if (blank(input.name)) issues.blank('name');
      const company = em.create(Company, { account: this.ctx.viewer.accountId, name: '', owner: this.ctx.viewer.userId }, { persist: false });
      await this.apply(company, input, issues);
      if (input.updatedAt) company.updatedAt = input.updatedAt;
      else if (input.createdAt) company.updatedAt = company.createdAt;
      issues.throwIfAny();
      company.name = company.name.trim();
      if (options?.checkForDuplicates) await this.rejectDuplicate(company.name);
      em.persist(company);
      return company;
    });
  }

  update(id: number, input: CompanyInput, options?: CompanyUpdateOptions): Promise<Company> {
    return mutation(this.ctx, async () => {
      const company = await loadForWrite(this.ctx, COMPANIES, id);
      const issues = new Issues();
      if (typeof input.name === 'string') input.name = withoutNul(input.name); // as on create
      if (input.name !== undefined && blank(input.name)) issues.blank('name');
      const previousOwner = company.owner?.id ?? null;
      // created_at is honoured on create (imports) only, as for people: clients PUT back what they
      // read, to the second, which would otherwise rewrite it (DECISIONS: Paths and requests).
      input.createdAt = undefined;
      await this.apply(company, input, issues);
      issues.throwIfAny();
      company.name = company.name.trim(); // as on create
      company.updatedAt = new Date();
      const newOwner = company.owner?.id ?? null;
      if (ownerMailOwed(this.ctx, previousOwner, newOwner, options?.deliverReassignmentEmail)) {
        recordMail(this.ctx, newOwner, { kind: 'company_reassignment', subject: { type: 'Company', id: company.id }, payload: { byUserId: this.ctx.viewer.userId } });
      }
      return company;
    });
  }

  delete(id: number): Promise<number> {
    return removeVisible(this.ctx, COMPANIES, id);
  }

  /**
   * Finds a company the viewer can see by exact name (case-insensitive), or creates one owned by
   * the viewer (in the caller's mutation). A company they cannot see is never found: a namesake is
   * created instead, exactly as if it did not exist, so its existence does not leak.
   */
  async findOrCreateByName(name: string): Promise<Company> {
    const trimmed = name.trim();
    const where = scopeOf(this.ctx, COMPANIES).add('lower(c.name) = lower(?)', trimmed);
    const existing = await this.ctx.em.execute<Array<{ id: number }>>(`select c.id from "companies" c where ${where.sql} order by c.id limit 1`, where.params, 'all');
    if (existing.length > 0) return this.ctx.em.getReference(Company, existing[0].id);
    const company = this.ctx.em.create(Company, { account: this.ctx.viewer.accountId, name: trimmed, owner: this.ctx.viewer.userId });
    this.ctx.em.persist(company);
    return company;
  }

  /** v3 §4.6 check_for_duplicates: any company of the account with that name, seen or not. */
  private async rejectDuplicate(name: string): Promise<void> {
    const [{ n }] = await this.ctx.em.execute<Array<{ n: string }>>(
      'select count(*) as n from "companies" where account_id = ? and lower(name) = lower(?)',
      [this.ctx.viewer.accountId, name],
      'all',
    );
    if (Number(n) > 0) throw ValidationFailed.one('base', 'DUPLICATE', `A company named "${name}" already exists`);
  }

  private async apply(company: Company, input: CompanyInput, issues: Issues): Promise<void> {
    dropUnstorableDates(input, ['createdAt', 'updatedAt'], issues);
    // A record always has a creation time (the column is not null): null or a blank form value
    // leaves it as it is, as for people, instead of failing the write (a 500).
    if (input.createdAt === null) input.createdAt = undefined;
    assignFields(this.ctx.em, Company, company, input, TEXT_FIELDS, issues);
    await setRelation(this.ctx, company, 'owner', User, input.ownerId, (id) => accountUsers(this.ctx).load(id), issues);
    if (input.customFields !== undefined) {
      const defs = await customFieldDefs(this.ctx, CustomFieldResource.COMPANY).load();
      company.customFields = mergeCustomFields(defs, company.customFields, input.customFields, issues);
    }
  }
}
