import { Issues, NotFoundError, ValidationFailed } from '../../common/errors';
import { findOneRow, listWithTotal } from '../../db/list-query';
import { startsWith, Where } from '../../db/sql';
import type { RequestContext } from '../../context/context';
import { isValidId } from '../../graphql/ids';
import { normalizePage, toPage, type Page, type PageInput } from '../../graphql/types';
import { assignFields, blank } from '../common/assign';
import { checkFilter, dropUnstorableDates, withoutNul } from '../common/input';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { mergeCustomFields } from '../custom-fields/custom-field-values';
import { recordMail } from '../outbox/outbox.service';
import { User } from '../users/user.entity';
import { seesEverything } from '../users/visibility';
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

/** Companies: tenancy and visibility on every read and write (issue 2 §6). */
export class CompanyService {
  constructor(private readonly ctx: RequestContext) {}

  private get em() {
    return this.ctx.em;
  }

  private scope(alias = 'c'): Where {
    const where = new Where().add(`${alias}.account_id = ?`, this.ctx.viewer.accountId);
    if (!seesEverything(this.ctx.viewer)) where.add(`${alias}.owner_id = ?`, this.ctx.viewer.userId);
    return where;
  }

  async list(filter: CompanyFilter | undefined, sort: readonly CompanySort[] | undefined, pageInput: PageInput | undefined): Promise<Page<Company>> {
    const page = normalizePage(pageInput);
    const where = this.scope();
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
    const { rows, total } = await listWithTotal(this.em, Company, { from: '"companies" c', alias: 'c', where, orderBy, limit: page.perPage, offset: page.offset });
    return toPage(rows, total, page);
  }

  /** For reading: a read-only projection. A company the viewer may not see is answered exactly like a missing one. */
  async get(id: number): Promise<Company> {
    const company = isValidId(id) ? await findOneRow(this.em, Company, '"companies" c', 'c', id, this.scope()) : null;
    if (!company) throw new NotFoundError('Company', id);
    return company;
  }

  /** For writing: the managed entity, under the same tenancy and visibility rules. */
  private async load(id: number): Promise<Company> {
    if (!isValidId(id)) throw new NotFoundError('Company', id);
    const company = await this.em.findOne(Company, { id, account: this.ctx.viewer.accountId });
    if (!company || (!seesEverything(this.ctx.viewer) && company.owner?.id !== this.ctx.viewer.userId)) throw new NotFoundError('Company', id);
    return company;
  }

  async create(input: CompanyInput, options?: CompanyCreateOptions): Promise<Company> {
    const issues = new Issues();
    if (typeof input.name === 'string') input.name = withoutNul(input.name); // `\u0000` alone is blank
    if (blank(input.name)) issues.add('name', "can't be blank");
    const company = this.em.create(Company, { account: this.ctx.viewer.accountId, name: '', owner: this.ctx.viewer.userId }, { persist: false });
    await this.apply(company, input, issues);
    if (input.updatedAt) company.updatedAt = input.updatedAt;
    else if (input.createdAt) company.updatedAt = company.createdAt;
    issues.throwIfAny();
    company.name = company.name.trim();
    if (options?.checkForDuplicates) await this.rejectDuplicate(company.name);
    await this.em.persistAndFlush(company);
    return company;
  }

  async update(id: number, input: CompanyInput, options?: CompanyUpdateOptions): Promise<Company> {
    const company = await this.load(id);
    const issues = new Issues();
    if (typeof input.name === 'string') input.name = withoutNul(input.name); // as on create
    if (input.name !== undefined && blank(input.name)) issues.add('name', "can't be blank");
    const previousOwner = company.owner?.id ?? null;
    // created_at is honoured on create (imports) only, as for people: clients PUT back what they
    // read, to the second, which would otherwise rewrite it (DECISIONS: Paths and requests).
    input.createdAt = undefined;
    await this.apply(company, input, issues);
    issues.throwIfAny();
    company.name = company.name.trim(); // as on create
    company.updatedAt = new Date();
    const newOwner = company.owner?.id ?? null;
    if (newOwner !== previousOwner && newOwner !== null && (options?.deliverReassignmentEmail ?? true) && newOwner !== this.ctx.viewer.userId) {
      recordMail(this.em, { accountId: this.ctx.viewer.accountId, recipientId: newOwner, kind: 'company_reassignment', subjectType: 'Company', subjectId: company.id, payload: { byUserId: this.ctx.viewer.userId } });
    }
    await this.em.flush();
    return company;
  }

  async delete(id: number): Promise<number> {
    const company = await this.load(id);
    await this.em.removeAndFlush(company);
    return id;
  }

  /** Finds a company by exact name (case-insensitive) in the account, or creates one owned by the viewer. */
  async findOrCreateByName(name: string): Promise<Company> {
    const trimmed = name.trim();
    const existing = await this.em.getConnection().execute<Array<{ id: number }>>(
      'select id from "companies" where account_id = ? and lower(name) = lower(?) order by id limit 1',
      [this.ctx.viewer.accountId, trimmed],
      'all',
    );
    if (existing.length > 0) return this.em.getReference(Company, existing[0].id);
    const company = this.em.create(Company, { account: this.ctx.viewer.accountId, name: trimmed, owner: this.ctx.viewer.userId });
    this.em.persist(company);
    return company;
  }

  private async rejectDuplicate(name: string): Promise<void> {
    const [{ n }] = await this.em.getConnection().execute<Array<{ n: string }>>(
      'select count(*) as n from "companies" where account_id = ? and lower(name) = lower(?)',
      [this.ctx.viewer.accountId, name],
      'all',
    );
    if (Number(n) > 0) throw ValidationFailed.one('base', `A company named "${name}" already exists`);
  }

  private async apply(company: Company, input: CompanyInput, issues: Issues): Promise<void> {
    dropUnstorableDates(input, ['createdAt', 'updatedAt'], issues);
    // A record always has a creation time (the column is not null): null or a blank form value
    // leaves it as it is, as for people, instead of failing the write (a 500).
    if (input.createdAt === null) input.createdAt = undefined;
    assignFields(this.em, Company, company, input, TEXT_FIELDS, issues);
    if (input.ownerId !== undefined) {
      if (input.ownerId === null) company.owner = null;
      else {
        const owner = await this.ctx.loaders.user(input.ownerId);
        if (!owner) issues.add('ownerId', 'does not exist');
        // Loader rows are read-only copies: the relation gets a managed reference.
        else company.owner = this.em.getReference(User, owner.id);
      }
    }
    if (input.customFields !== undefined) {
      const defs = await this.ctx.loaders.customFields(CustomFieldResource.COMPANY);
      company.customFields = mergeCustomFields(defs, company.customFields, input.customFields, issues);
    }
  }
}
