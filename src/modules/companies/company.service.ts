import { Issues, ValidationFailed } from '../../common/errors';
import { startsWith } from '../../db/sql';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { ownedRecords } from '../../context/visibility';
import { normalizePage, type Page, type PageInput } from '../../graphql/types';
import { assignFields, blank } from '../common/assign';
import { checkFilter, dropUnstorableDates, withoutNul } from '../common/input';
import { findVisible, listPage, loadForWrite, removeVisible, scopeOf, setRelation, type ResourceDef } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';
import { mergeCustomFields } from '../custom-fields/custom-field-values';
import { ownerMailOwed, recordMail } from '../outbox/outbox.service';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { Company } from './company.entity';
import { CompanySortField, type CompanyCreateOptions, type CompanyFilter, type CompanyInput, type CompanySort, type CompanyUpdateOptions } from './company.inputs';

const TEXT_FIELDS = [
  'name', 'description', 'email', 'web', 'fax', 'address1', 'address2', 'city', 'state', 'postalCode', 'country',
  'phone1', 'phone2', 'phone3', 'phone4', 'phone1Desc', 'phone2Desc', 'phone3Desc', 'phone4Desc', 'imageUrl', 'createdAt',
] as const;

/** Columns behind each prefix condition; `lower(..)` matches the migration's text_pattern_ops indexes. */
const PREFIX_COLUMNS: ReadonlyArray<[keyof CompanyFilter, string]> = [
  ['name', 'lower(c.name)'],
  ['description', 'lower(left(c.description, 200))'],
  ['email', 'lower(c.email)'],
  ['fax', 'lower(c.fax)'],
  ['address', 'lower(c.address1)'],
  ['address2', 'lower(c.address2)'],
  ['city', 'lower(c.city)'],
  ['state', 'lower(c.state)'],
  ['zip', 'lower(c.postal_code)'],
  ['country', 'lower(c.country)'],
];

const SORT_COLUMNS: Record<CompanySortField, string> = {
  [CompanySortField.ID]: 'c.id',
  [CompanySortField.NAME]: 'lower(c.name)',
  [CompanySortField.CITY]: 'c.city',
  [CompanySortField.STATE]: 'c.state',
  [CompanySortField.COUNTRY]: 'c.country',
  [CompanySortField.POSTAL_CODE]: 'c.postal_code',
  [CompanySortField.EMAIL]: 'c.email',
  [CompanySortField.OWNER_ID]: 'c.owner_id',
  [CompanySortField.CREATED_AT]: 'c.created_at',
  [CompanySortField.UPDATED_AT]: 'c.updated_at',
};

export const COMPANIES: ResourceDef<Company> = { entity: Company, alias: 'c', name: 'Company', visibility: ownedRecords<Company>() };

/** Companies: tenancy and visibility on every read and write (issue 2 §6). */
export class CompanyService {
  constructor(private readonly ctx: RequestContext) {}

  async list(filter: CompanyFilter | undefined, sort: readonly CompanySort[] | undefined, pageInput: PageInput | undefined): Promise<Page<Company>> {
    const where = scopeOf(this.ctx, COMPANIES);
    filter = checkFilter(filter, ['created', 'modified', 'importedAt']);
    if (filter) {
      where.ids('c.id', filter.ids).ids('c.owner_id', filter.ownerIds);
      for (const [key, column] of PREFIX_COLUMNS) {
        const value = filter[key];
        if (typeof value === 'string' && value.trim() !== '') where.add(`${column} like ?`, startsWith(value.trim()));
      }
      if (filter.phone?.trim()) {
        const p = startsWith(filter.phone.trim());
        where.add('lower(c.phone1) like ? or lower(c.phone2) like ? or lower(c.phone3) like ? or lower(c.phone4) like ?', p, p, p, p);
      }
      where.range('c.created_at', filter.created).range('c.updated_at', filter.modified).range('c.imported_at', filter.importedAt);
    }
    const orderBy = (sort ?? []).map((s) => `${SORT_COLUMNS[s.field]} ${s.direction === 'DESC' ? 'desc' : 'asc'}`);
    if (orderBy.length === 0) orderBy.push('lower(c.name) asc');
    return listPage(this.ctx, COMPANIES, where, orderBy, normalizePage(pageInput));
  }

  get(id: number): Promise<Company> {
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
