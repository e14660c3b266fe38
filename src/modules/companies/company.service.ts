import { Issues, ValidationFailed } from '../../common/errors';
import type { Connection, ConnectionReads, Paging } from '../../graphql/connection';
import type { RequestContext } from '../../context/context';
import type { RelationReads } from '../../graphql/relations';
import { mutation } from '../../context/transaction';
import { blank } from '../../kit/assign';
import { dropUnstorableDates, withoutNul } from '../common/input';
import { linkable, listConnection, loadForWrite, scopeOf, setRelation } from '../common/resource';
import { COMPANY_RECORDS } from './company.visibility';
import { isValidId } from '../../graphql/ids';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { applyCustomFields } from '../custom-fields/custom-field-write';
import { prepareCustomFieldSearch } from '../custom-field-search';
import { ownerMailOwed, recordMail } from '../outbox/outbox.service';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { Company } from './company.entity';
import { COMPANY_FIELDS, type CompanyInput } from './company.fields';
import type { CompanyCreateOptions, CompanyUpdateOptions } from './company.inputs';

/** The fields the service writes itself; the kit copies the rest (company.fields.ts). */
const WRITES = COMPANY_FIELDS.writes(['ownerId', 'customFields', 'customFieldValues', 'updatedAt']);

/** Company names are varchar(255). */
const MAX_COMPANY_NAME = 255;

/**
 * What other records' company fields read of their company: `company` what is selected of it and
 * what `linkable` judges; `companyName` its name only (graphql/relations.ts).
 */
export const COMPANY_READS: RelationReads = { selected: true, with: COMPANY_RECORDS.visibility.reads };
export const COMPANY_NAME_READS: RelationReads = ['name'];

/** Companies' own steps (company.resolver.ts): tenancy and visibility on every read and write; show and delete are the record resource's defaults. */
export class CompanyService {
  constructor(private readonly ctx: RequestContext) {}

  /** A page of the companies the viewer may see that match `filter`, in `orderBy` order. */
  async list(
    filter: InstanceType<typeof COMPANY_FIELDS.Filter> | null | undefined,
    orderBy: ReadonlyArray<InstanceType<typeof COMPANY_FIELDS.Order>> | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
  ): Promise<Connection<Company>> {
    await prepareCustomFieldSearch(this.ctx, CustomFieldResource.COMPANY, filter);
    const condition = COMPANY_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, COMPANY_RECORDS).add(condition.sql, ...condition.params);
    return listConnection(this.ctx, COMPANY_RECORDS, where, COMPANY_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  create(input: CompanyInput, options?: CompanyCreateOptions): Promise<Company> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      if (typeof input.name === 'string') input.name = withoutNul(input.name); // `\u0000` alone is blank
      if (blank(input.name)) issues.blank('name');
      const company = em.create(Company, { account: this.ctx.viewer.accountId, name: '', owner: this.ctx.viewer.userId }, { persist: false });
      await this.apply(company, input, issues, true);
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
      const company = await loadForWrite(this.ctx, COMPANY_RECORDS, id);
      const issues = new Issues();
      if (typeof input.name === 'string') input.name = withoutNul(input.name); // as on create
      if (input.name !== undefined && blank(input.name)) issues.blank('name');
      const previousOwner = company.owner?.id ?? null;
      // created_at is honoured on create (imports) only (write: 'create'), as for people: clients
      // PUT back what they read, to the second, which would otherwise rewrite it (DECISIONS).
      await this.apply(company, input, issues, false);
      issues.throwIfAny();
      company.name = company.name.trim(); // as on create
      company.updatedAt = new Date();
      const newOwner = company.owner?.id ?? null;
      if (ownerMailOwed(this.ctx, previousOwner, newOwner, options?.deliverReassignmentEmail)) {
        recordMail(this.ctx, newOwner, {
          kind: 'company_reassignment',
          subject: { type: 'Company', id: company.id },
          payload: { byUserId: this.ctx.viewer.userId },
        });
      }
      return company;
    });
  }

  /**
   * Finds a company the viewer can see by exact name (case-insensitive), or creates one owned by
   * the viewer (in the caller's mutation). A company they cannot see is never found: a namesake is
   * created instead, exactly as if it did not exist, so its existence does not leak.
   */
  async findOrCreateByName(name: string): Promise<Company> {
    const trimmed = name.trim();
    const where = scopeOf(this.ctx, COMPANY_RECORDS).add('lower(c.name) = lower(?)', trimmed);
    const existing = await this.ctx.em.execute<Array<{ id: number }>>(
      `select c.id from "companies" c where ${where.sql} order by c.id limit 1`,
      where.params,
      'all',
    );
    if (existing.length > 0) return this.ctx.em.getReference(Company, existing[0].id);
    const company = this.ctx.em.create(Company, { account: this.ctx.viewer.accountId, name: trimmed, owner: this.ctx.viewer.userId });
    this.ctx.em.persist(company);
    return company;
  }

  /**
   * A record's company from `companyId` / `companyName` (v3 §2.4 people, §2.5 deals):
   * `companyName`, when it differs from the current company's name, finds or creates that company
   * and wins; otherwise `companyId` decides (must be a company of the account). A blank name
   * without a companyId clears the company. A name that is the name of the company `companyId`
   * names also lets `companyId` decide: company names need not be unique, and a record sent whole
   * (copied into a create, or with both attributes changed) means that company, not a namesake.
   * Linking follows the visibility rule: a company the viewer cannot see is treated as missing
   * (`companyId` → "does not exist"; `companyName` never finds it, so a company of that name owned
   * by the viewer is created), so its existence does not leak. The company a record already has
   * stays linked when sent back, seen or not: clients PUT back what they read.
   */
  async linkCompany(record: { company: Company | null }, input: { companyId?: number | null; companyName?: string | null }, issues: Issues): Promise<void> {
    const companies = this.ctx.loaders.byId(Company);
    const currentId = record.company?.id ?? null;
    const linkableCompany = async (id: number | null | undefined): Promise<Company | null> => {
      const company = id != null && isValidId(id) ? await companies.load(id) : null;
      return company && (company.id === currentId || linkable(this.ctx, COMPANY_RECORDS, company)) ? company : null;
    };
    // NUL cannot be stored or searched for in PostgreSQL text (as assignFields drops it from columns).
    const name = typeof input.companyName === 'string' ? withoutNul(input.companyName).trim() : input.companyName;
    if (name) {
      const named = (company: Company | null) => company !== null && company.name.trim().toLowerCase() === name.toLowerCase();
      if (named(await companies.load(currentId)) || named(await linkableCompany(input.companyId))) {
        // Unchanged name (a record sent back whole), or the name of the company sent: companyId decides.
      } else if ([...name].length > MAX_COMPANY_NAME) {
        issues.tooLong('companyName', MAX_COMPANY_NAME);
        return;
      } else {
        record.company = await this.findOrCreateByName(name);
        return;
      }
    }
    if (input.companyId !== undefined) {
      await setRelation(this.ctx, record, 'company', Company, input.companyId, linkableCompany, issues);
    } else if (name !== undefined && !name) {
      record.company = null;
    }
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

  private async apply(company: Company, input: CompanyInput, issues: Issues, isNew: boolean): Promise<void> {
    dropUnstorableDates(input, ['createdAt', 'updatedAt'], issues);
    // A record always has a creation time (the column is not null): null or a blank form value
    // leaves it as it is, as for people, instead of failing the write (a 500).
    if (input.createdAt === null) input.createdAt = undefined;
    WRITES.assign(this.ctx.em, company, input, issues, isNew);
    await setRelation(this.ctx, company, 'owner', User, input.ownerId, (id) => accountUsers(this.ctx).load(id), issues);
    await applyCustomFields(this.ctx, CustomFieldResource.COMPANY, company, input, issues, isNew);
  }
}
