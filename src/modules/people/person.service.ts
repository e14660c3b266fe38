import DataLoader from 'dataloader';
import { Issues, NotFoundError, ValidationFailed } from '../../common/errors';
import { findOneRow, listWithTotal } from '../../db/list-query';
import { contains, Where } from '../../db/sql';
import type { RequestContext } from '../../context/context';
import { isValidId } from '../../graphql/ids';
import { normalizePage, toPage, type Page, type PageInput } from '../../graphql/types';
import { assignFields, blank } from '../common/assign';
import { Company } from '../companies/company.entity';
import { CompanyService } from '../companies/company.service';
import { checkFilter, dropUnstorableDates, withoutNul } from '../common/input';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { mergeCustomFields } from '../custom-fields/custom-field-values';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { recordMail } from '../outbox/outbox.service';
import { User } from '../users/user.entity';
import { seesEverything } from '../users/visibility';
import { Person, PersonType } from './person.entity';
import { PersonSortField, type PersonCreateOptions, type PersonFilter, type PersonInput, type PersonSort, type PersonUpdateOptions } from './person.inputs';

/** Scalar fields copied as given (lengths checked against the columns). created/updated_at are create-only. */
const SCALAR_FIELDS = [
  'firstName', 'lastName', 'summary', 'position', 'website', 'phone', 'homePhone', 'mobile', 'fax', 'email', 'email2', 'homeEmail', 'imageUrl',
  'workAddress1', 'workAddress2', 'workCity', 'workState', 'workCountry', 'workPostalCode',
  'homeAddress1', 'homeAddress2', 'homeCity', 'homeState', 'homeCountry', 'homePostalCode',
  'facebookUrl', 'linkedInUrl', 'twitter', 'instantMessage', 'lastEmailedAt',
] as const;

/** Company names are varchar(255) (companies.name). */
const MAX_COMPANY_NAME = 255;

/** The expressions the migration's trigram indexes are built on: conditions must use them verbatim. */
const NAME_EXPR = `(coalesce(p.first_name, '') || ' ' || p.last_name)`;
const EMAILS_EXPR = `(coalesce(p.email, '') || ' ' || coalesce(p.email2, '') || ' ' || coalesce(p.home_email, ''))`;
const PHONES_EXPR = `(coalesce(p.phone, '') || ' ' || coalesce(p.mobile, '') || ' ' || coalesce(p.home_phone, ''))`;
const COMPANY_NAME_MATCH = `exists (select 1 from "companies" c where c.id = p.company_id and c.account_id = p.account_id and c.name ilike ?)`;

/** Substring (like) conditions on one column each (v3 §4.4; DECISIONS: case-insensitive substring). */
const LIKE_COLUMNS: ReadonlyArray<[keyof PersonFilter, string]> = [
  ['name', NAME_EXPR],
  ['fullName', NAME_EXPR],
  ['city', 'p.work_city'],
  ['state', 'p.work_state'],
  ['zip', 'p.work_postal_code'],
  ['position', 'p.position'],
  ['email', EMAILS_EXPR],
  ['phone', PHONES_EXPR],
];

const SORT_COLUMNS: Record<PersonSortField, string> = {
  [PersonSortField.ID]: 'p.id',
  [PersonSortField.FIRST_NAME]: 'lower(p.first_name)',
  [PersonSortField.LAST_NAME]: 'lower(p.last_name)',
  [PersonSortField.EMAIL]: 'lower(p.email)',
  [PersonSortField.POSITION]: 'lower(p.position)',
  [PersonSortField.TYPE]: 'p.type',
  [PersonSortField.OWNER_ID]: 'p.owner_id',
  [PersonSortField.COMPANY_ID]: 'p.company_id',
  [PersonSortField.COMPANY_NAME]: '(select lower(c.name) from "companies" c where c.id = p.company_id)',
  [PersonSortField.LEAD_STATUS_ID]: 'p.lead_status_id',
  [PersonSortField.LEAD_SOURCE_ID]: 'p.lead_source_id',
  [PersonSortField.WORK_CITY]: 'lower(p.work_city)',
  [PersonSortField.WORK_STATE]: 'lower(p.work_state)',
  [PersonSortField.WORK_COUNTRY]: 'lower(p.work_country)',
  [PersonSortField.WORK_POSTAL_CODE]: 'p.work_postal_code',
  [PersonSortField.CONVERTED_AT]: 'p.converted_at',
  [PersonSortField.LAST_EMAILED_AT]: 'p.last_emailed_at',
  [PersonSortField.CREATED_AT]: 'p.created_at',
  [PersonSortField.UPDATED_AT]: 'p.updated_at',
};

const DEFAULT_ORDER = ['lower(p.last_name) asc', 'lower(p.first_name) asc'];

type Names = { firstName?: string | null; lastName?: string | null };

const squash = (text: string) => withoutNul(text).trim().replace(/\s+/g, ' ');

/**
 * v3 §2.4 `full_name`: split on the first space into first and last name; one word is a last name
 * (last_name is the required part). On update a full name equal to the current one is ignored, so
 * a client PUTting back a whole record with only first_name changed keeps its change. A full name
 * equal to the first and last names sent with it is ignored too: a record copied into a create
 * (`Mary Ann` `Smith`) keeps its parts instead of being re-split (`Mary` `Ann Smith`).
 */
function namesFromFullName(person: Person, input: Names & { fullName?: string | null }, isNew: boolean): Names {
  const { fullName } = input;
  if (typeof fullName !== 'string') return {};
  const normalized = squash(fullName);
  if (normalized === '' || (!isNew && normalized === person.fullName)) return {};
  if (typeof input.lastName === 'string' && normalized === squash([input.firstName ?? '', input.lastName].join(' '))) return {};
  const space = normalized.indexOf(' ');
  return space < 0 ? { firstName: null, lastName: normalized } : { firstName: normalized.slice(0, space), lastName: normalized.slice(space + 1) };
}

/** People: tenancy and visibility on every read and write (issue 2 §6), v3 §4.4 rules. */
export class PersonService {
  constructor(private readonly ctx: RequestContext) {}

  private get em() {
    return this.ctx.em;
  }

  private scope(alias = 'p'): Where {
    const where = new Where().add(`${alias}.account_id = ?`, this.ctx.viewer.accountId);
    if (!seesEverything(this.ctx.viewer)) where.add(`${alias}.owner_id = ?`, this.ctx.viewer.userId);
    return where;
  }

  private conditions(rawFilter: PersonFilter | undefined): Where {
    const where = this.scope();
    const filter = checkFilter(rawFilter, ['converted', 'created', 'modified']);
    if (!filter) return where;
    where
      .ids('p.id', filter.ids)
      .ids('p.owner_id', filter.ownerIds)
      .ids('p.company_id', filter.companyIds)
      .ids('p.lead_source_id', filter.leadSourceIds)
      .ids('p.lead_status_id', filter.statusIds);
    for (const [key, column] of LIKE_COLUMNS) {
      const value = filter[key];
      if (typeof value === 'string' && value.trim() !== '') where.add(`${column} ilike ?`, contains(value.trim()));
    }
    if (filter.companyName?.trim()) where.add(COMPANY_NAME_MATCH, contains(filter.companyName.trim()));
    if (filter.simpleSearch?.trim()) {
      // v3 §4.4: first name, last name, email or company name. The name and email expressions are
      // the indexed ones (the email one also covers email2/home_email: still "the person's email").
      const term = contains(filter.simpleSearch.trim());
      where.add(`${NAME_EXPR} ilike ? or ${EMAILS_EXPR} ilike ? or ${COMPANY_NAME_MATCH}`, term, term, term);
    }
    if (filter.type) where.add('p.type = ?', filter.type);
    where.range('p.converted_at', filter.converted).range('p.created_at', filter.created).range('p.updated_at', filter.modified);
    return where;
  }

  async list(filter: PersonFilter | undefined, sort: readonly PersonSort[] | undefined, pageInput: PageInput | undefined): Promise<Page<Person>> {
    const page = normalizePage(pageInput);
    const where = this.conditions(filter);
    const orderBy = (sort ?? []).map((s) => `${SORT_COLUMNS[s.field]} ${s.direction === 'DESC' ? 'desc' : 'asc'}`);
    if (orderBy.length === 0) orderBy.push(...DEFAULT_ORDER);
    const { rows, total } = await listWithTotal(this.em, Person, { from: '"people" p', alias: 'p', where, orderBy, limit: page.perPage, offset: page.offset });
    return toPage(rows, total, page);
  }

  /**
   * One page of people per company, for many companies in one statement (the Company.people field:
   * v3 §4.6 `associations=people`). Visibility applies: an `own` user sees only their people.
   */
  async pagesByCompany(companyIds: readonly number[], pageInput: PageInput | undefined): Promise<Map<number, Page<Person>>> {
    const page = normalizePage(pageInput);
    const where = this.scope().ids('p.company_id', companyIds);
    const raw = await this.em.getConnection().execute<Record<string, unknown>[]>(
      `select * from (select p.*, row_number() over (partition by p.company_id order by ${DEFAULT_ORDER.join(', ')}, p.id asc) as "__rn",
         count(*) over (partition by p.company_id) as "__total" from "people" p where ${where.sql}) x
       where x."__rn" > ? and x."__rn" <= ? order by x.company_id, x."__rn"`,
      [...where.params, page.offset, page.offset + page.perPage],
      'all',
    );
    const rows = new Map<number, Person[]>();
    const totals = new Map<number, number>();
    for (const r of raw) {
      const companyId = Number(r.company_id);
      totals.set(companyId, Number(r.__total));
      delete r.__rn;
      delete r.__total;
      const list = rows.get(companyId) ?? [];
      list.push(this.em.map(Person, r as never));
      rows.set(companyId, list);
    }
    const missing = companyIds.filter((id) => !totals.has(id));
    if (page.offset > 0 && missing.length > 0) {
      // A page past the end has no rows to carry the total: count those companies apart.
      const countWhere = this.scope().ids('p.company_id', missing);
      const counts = await this.em.getConnection().execute<Array<{ company_id: number; n: string }>>(
        `select p.company_id, count(*) as n from "people" p where ${countWhere.sql} group by p.company_id`,
        countWhere.params,
        'all',
      );
      for (const c of counts) totals.set(Number(c.company_id), Number(c.n));
    }
    return new Map(companyIds.map((id) => [id, toPage(rows.get(id) ?? [], totals.get(id) ?? 0, page)]));
  }

  /** A person the viewer may not see is answered exactly like a missing one. */
  /** For reading: a read-only projection. A person the viewer may not see is answered like a missing one. */
  async get(id: number): Promise<Person> {
    const person = isValidId(id) ? await findOneRow(this.em, Person, '"people" p', 'p', id, this.scope()) : null;
    if (!person) throw new NotFoundError('Person', id);
    return person;
  }

  /** For writing: the managed entity, under the same tenancy and visibility rules. */
  private async load(id: number): Promise<Person> {
    if (!isValidId(id)) throw new NotFoundError('Person', id);
    const person = await this.em.findOne(Person, { id, account: this.ctx.viewer.accountId });
    if (!person || (!seesEverything(this.ctx.viewer) && person.owner?.id !== this.ctx.viewer.userId)) throw new NotFoundError('Person', id);
    return person;
  }

  async create(input: PersonInput, options?: PersonCreateOptions): Promise<Person> {
    const issues = new Issues();
    const person = this.em.create(Person, { account: this.ctx.viewer.accountId, lastName: '', owner: this.ctx.viewer.userId }, { persist: false });
    await this.apply(person, input, issues, true);
    // Imports keep their timestamps (v3 §2.4: created_at/updated_at writable); honoured on create only.
    if (input.createdAt) person.createdAt = input.createdAt;
    if (input.updatedAt) person.updatedAt = input.updatedAt;
    else if (input.createdAt) person.updatedAt = person.createdAt;
    await this.checkTodoTemplate(options, issues);
    issues.throwIfAny();
    if (options?.checkForDuplicates) await this.rejectDuplicate(person);

    const ownerId = person.owner?.id ?? null;
    // v3 §4.4 deliver_assignment_email (default true): the owner is told when someone else assigned them.
    const mailOwner = (options?.deliverAssignmentEmail ?? true) && ownerId !== null && ownerId !== this.ctx.viewer.userId;
    if (!mailOwner) {
      await this.em.persistAndFlush(person);
      return person;
    }
    // The mail intent needs the new id and must commit with the person: one transaction, two flushes.
    await this.em.begin();
    try {
      this.em.persist(person);
      await this.em.flush();
      recordMail(this.em, { accountId: this.ctx.viewer.accountId, recipientId: ownerId, kind: 'person_assignment', subjectType: 'Person', subjectId: person.id, payload: { byUserId: this.ctx.viewer.userId } });
      await this.em.commit();
    } catch (error) {
      await this.em.rollback();
      throw error;
    }
    return person;
  }

  async update(id: number, input: PersonInput, options?: PersonUpdateOptions): Promise<Person> {
    const person = await this.load(id);
    const issues = new Issues();
    const previousOwner = person.owner?.id ?? null;
    await this.apply(person, input, issues, false);
    await this.checkTodoTemplate(options, issues);
    issues.throwIfAny();
    // created_at/updated_at sent on update are ignored: clients PUT back what they read (DECISIONS).
    person.updatedAt = new Date();
    const newOwner = person.owner?.id ?? null;
    // v3 §4.4 deliver_reassignment_email; as for companies, nobody is emailed about their own change.
    if (newOwner !== previousOwner && newOwner !== null && (options?.deliverReassignmentEmail ?? true) && newOwner !== this.ctx.viewer.userId) {
      recordMail(this.em, { accountId: this.ctx.viewer.accountId, recipientId: newOwner, kind: 'person_reassignment', subjectType: 'Person', subjectId: person.id, payload: { byUserId: this.ctx.viewer.userId } });
    }
    await this.em.flush();
    return person;
  }

  async delete(id: number): Promise<number> {
    const person = await this.load(id);
    await this.em.removeAndFlush(person);
    return id;
  }

  /** v3 §4.4 check_for_duplicates: a *visible* Contact with the same last name and email (case-insensitive). */
  private async rejectDuplicate(person: Person): Promise<void> {
    const where = this.scope()
      .add(`p.type = ?`, PersonType.CONTACT)
      .add('lower(p.last_name) = lower(?)', person.lastName)
      .add(`lower(coalesce(p.email, '')) = lower(?)`, person.email ?? '');
    const rows = await this.em.getConnection().execute<Array<{ id: number; first_name: string | null; last_name: string }>>(
      `select p.id, p.first_name, p.last_name from "people" p where ${where.sql} order by p.id limit 1`,
      where.params,
      'all',
    );
    if (rows.length === 0) return;
    const name = [rows[0].first_name, rows[0].last_name].filter(Boolean).join(' ');
    const email = person.email ? ` and email ${person.email}` : ' and no email';
    throw ValidationFailed.one('base', `Duplicate of ${name} (id ${rows[0].id}): a contact with the same last name${email} already exists`);
  }

  /** Todo templates arrive in a later issue: none exist yet, so any template id is refused rather than silently ignored. */
  private async checkTodoTemplate(options: { todoTemplateId?: number | null; todoTemplateUserId?: number | null } | undefined, issues: Issues): Promise<void> {
    if (options?.todoTemplateId != null) issues.add('todoTemplateId', 'does not exist');
    if (options?.todoTemplateUserId != null && !(await this.ctx.loaders.user(options.todoTemplateUserId))) issues.add('todoTemplateUserId', 'does not exist');
  }

  private async apply(person: Person, input: PersonInput, issues: Issues, isNew: boolean): Promise<void> {
    dropUnstorableDates(input, ['createdAt', 'updatedAt', 'lastEmailedAt'], issues);
    const fields: PersonInput = { ...input, ...namesFromFullName(person, input, isNew) };
    // NUL is dropped before the blank check, so a last name of `\u0000` alone is blank.
    if (typeof fields.firstName === 'string') fields.firstName = withoutNul(fields.firstName).trim();
    if (typeof fields.lastName === 'string') fields.lastName = withoutNul(fields.lastName).trim();
    if ((fields.lastName === undefined && isNew) || (fields.lastName !== undefined && blank(fields.lastName))) {
      issues.add('lastName', "can't be blank");
      delete fields.lastName;
    }
    assignFields(this.em, Person, person, fields, SCALAR_FIELDS, issues);

    if (input.type != null && input.type !== person.type) {
      // Lead → Contact is a conversion (v3 conditions[person_converted]); back to Lead un-converts.
      person.convertedAt = person.type === PersonType.LEAD && input.type === PersonType.CONTACT ? new Date() : null;
      person.type = input.type;
    }
    // A form cannot send JSON null: a blank boolean means the default, false.
    if (input.unsubscribed !== undefined) person.unsubscribed = input.unsubscribed ?? false;
    if (input.bounced !== undefined) person.bounced = input.bounced ?? false;

    await this.applyCompany(person, input, issues);
    if (input.ownerId !== undefined) {
      if (input.ownerId === null) person.owner = null;
      else {
        const owner = await this.ctx.loaders.user(input.ownerId);
        if (!owner) issues.add('ownerId', 'does not exist');
        else person.owner = this.em.getReference(User, owner.id);
      }
    }
    await this.applyListItem(person, 'leadStatus', input.leadStatusId, ListKind.LEAD_STATUS, issues);
    await this.applyListItem(person, 'leadSource', input.leadSourceId, ListKind.LEAD_SOURCE, issues);
    if (input.tagIds !== undefined) {
      // v3 §4.4: the tag set is replaced; unknown ids (or items of another list) are ignored.
      const wanted = [...new Set(input.tagIds ?? [])].filter(isValidId);
      const items = await this.ctx.loaders.listItems(wanted);
      person.tagIds = items.filter((i) => i.kind === ListKind.CONTACT_TAG).map((i) => i.id);
    }
    // input.dealIds is accepted and ignored for now: there is no deals table yet, and v3 §4.4 ignores
    // unknown deal ids anyway. The deals module will associate them.
    if (input.customFields !== undefined) {
      const defs = await this.ctx.loaders.customFields(CustomFieldResource.PERSON);
      person.customFields = mergeCustomFields(defs, person.customFields, input.customFields, issues);
    }
  }

  /**
   * v3 §2.4: `company_name`, when it differs from the current company's name, finds or creates that
   * company and wins; otherwise `companyId` decides (must be a company of the account). A blank name
   * without a companyId clears the company. A name that is the name of the company `companyId`
   * names also lets `companyId` decide: company names need not be unique, and a record sent whole
   * (copied into a create, or with both attributes changed) means that company, not a namesake.
   */
  private async applyCompany(person: Person, input: PersonInput, issues: Issues): Promise<void> {
    // NUL cannot be stored or searched for in PostgreSQL text (as assignFields drops it from columns).
    const name = typeof input.companyName === 'string' ? withoutNul(input.companyName).trim() : input.companyName;
    if (name) {
      const named = (company: Company | null) => company !== null && company.name.trim().toLowerCase() === name.toLowerCase();
      const current = await this.ctx.loaders.company(person.company?.id);
      const given = input.companyId != null && isValidId(input.companyId) ? await this.ctx.loaders.company(input.companyId) : null;
      if (named(current) || named(given)) {
        // Unchanged name (a record sent back whole), or the name of the company sent: companyId decides.
      } else if (name.length > MAX_COMPANY_NAME) {
        issues.add('companyName', `is too long (maximum is ${MAX_COMPANY_NAME} characters)`);
        return;
      } else {
        person.company = await new CompanyService(this.ctx).findOrCreateByName(name);
        return;
      }
    }
    if (input.companyId !== undefined) {
      if (input.companyId === null) person.company = null;
      else {
        const company = isValidId(input.companyId) ? await this.ctx.loaders.company(input.companyId) : null;
        if (!company) issues.add('companyId', 'does not exist');
        else person.company = this.em.getReference(Company, company.id);
      }
    } else if (name !== undefined && !name) {
      person.company = null;
    }
  }

  private async applyListItem(person: Person, prop: 'leadStatus' | 'leadSource', id: number | null | undefined, kind: ListKind, issues: Issues): Promise<void> {
    if (id === undefined) return;
    if (id === null) {
      person[prop] = null;
      return;
    }
    const item = isValidId(id) ? await this.ctx.loaders.listItem(id) : null;
    if (!item || item.kind !== kind) issues.add(`${prop}Id`, 'does not exist');
    else person[prop] = this.em.getReference(ListItem, item.id);
  }
}

const companyPeopleLoaders = new WeakMap<RequestContext, Map<string, DataLoader<number, Page<Person>>>>();

/**
 * Company.people through a per-request batch (one statement for every company asking for the
 * same page), so a list of companies with their people is not one query per company.
 */
export function peopleOfCompany(ctx: RequestContext, companyId: number, pageInput: PageInput | undefined): Promise<Page<Person>> {
  const page = normalizePage(pageInput);
  const key = `${page.page}:${page.perPage}`;
  let byPage = companyPeopleLoaders.get(ctx);
  if (!byPage) companyPeopleLoaders.set(ctx, (byPage = new Map()));
  let loader = byPage.get(key);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const pages = await new PersonService(ctx).pagesByCompany(ids, { page: page.page, perPage: page.perPage });
      return ids.map((id) => pages.get(id)!);
    });
    byPage.set(key, loader);
  }
  return loader.load(companyId);
}
