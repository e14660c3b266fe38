import { Issues, ValidationFailed } from '../../common/errors';
import type { Connection, ConnectionReads, Paging } from '../../graphql/connection';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { isValidId } from '../../graphql/ids';
import { blank } from '../../kit/assign';
import { CompanyService } from '../companies/company.service';
import { dropUnstorableDates, withoutNul } from '../common/input';
import { listConnection, loadForWrite, scopeOf, setRelation } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { applyCustomFields } from '../custom-fields/custom-field-write';
import { prepareCustomFieldSearch } from '../custom-field-search';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { ListItemService } from '../lists/list-item.service';
import { ownerMailOwed, recordMail } from '../outbox/outbox.service';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { Person, PersonType } from './person.entity';
import { DealService } from '../deals/deal.service';
import { applyTodoTemplate, checkTodoTemplate, type CheckedTodoTemplate } from '../todo-templates/todo-template-application';
import { TodoTemplateType } from '../todo-templates/todo-template.entity';
import { PERSON_FIELDS, type PersonInput } from './person.fields';
import { PERSON_RECORDS } from './person.visibility';
import type { PersonCreateOptions, PersonUpdateOptions } from './person.inputs';

/** The fields the service writes itself; the kit copies the rest (person.fields.ts). */
const WRITES = PERSON_FIELDS.writes([
  'fullName',
  'companyId',
  'companyName',
  'ownerId',
  'type',
  'leadStatusId',
  'leadSourceId',
  'tagIds',
  'customFields',
  'customFieldValues',
  'unsubscribed',
  'bounced',
  'createdAt',
  'updatedAt',
  'dealIds',
]);

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

/** People's own steps (person.resolver.ts): tenancy and visibility on every read and write (issue 2 §6), v3 §4.4 rules; show and delete are the record resource's defaults. */
export class PersonService {
  constructor(private readonly ctx: RequestContext) {}

  private get em() {
    return this.ctx.em;
  }

  /** A page of the people the viewer may see that match `filter`, in `orderBy` order. */
  async list(
    filter: InstanceType<typeof PERSON_FIELDS.Filter> | null | undefined,
    orderBy: ReadonlyArray<InstanceType<typeof PERSON_FIELDS.Order>> | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
  ): Promise<Connection<Person>> {
    await prepareCustomFieldSearch(this.ctx, CustomFieldResource.PERSON, filter);
    const condition = PERSON_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, PERSON_RECORDS).add(condition.sql, ...condition.params);
    return listConnection(this.ctx, PERSON_RECORDS, where, PERSON_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  create(input: PersonInput, options?: PersonCreateOptions): Promise<Person> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      // v3 `created_by_user_id` (recorded): the viewer, whoever the owner becomes.
      const person = em.create(
        Person,
        { account: this.ctx.viewer.accountId, lastName: '', owner: this.ctx.viewer.userId, createdBy: this.ctx.viewer.userId },
        { persist: false },
      );
      await this.apply(person, input, issues, true);
      // Imports keep their timestamps (v3 §2.4: created_at/updated_at writable); honoured on create only.
      if (input.createdAt) person.createdAt = input.createdAt;
      if (input.updatedAt) person.updatedAt = input.updatedAt;
      else if (input.createdAt) person.updatedAt = person.createdAt;
      const template = await checkTodoTemplate(this.ctx, options, TodoTemplateType.PEOPLE, issues);
      issues.throwIfAny();
      if (options?.checkForDuplicates) await this.rejectDuplicate(person);
      em.persist(person);
      const ownerId = person.owner?.id ?? null;
      // v3 §4.4 deliver_assignment_email (default true): the owner is told when someone else assigned them.
      if (ownerMailOwed(this.ctx, undefined, ownerId, options?.deliverAssignmentEmail)) {
        await em.flush(); // the mail names the new person's id
        recordMail(this.ctx, ownerId, { kind: 'person_assignment', subject: { type: 'Person', id: person.id }, payload: { byUserId: this.ctx.viewer.userId } });
      }
      await this.storeDeals(person, input);
      await this.storeTodoTemplate(person, template);
      return person;
    });
  }

  update(id: number, input: PersonInput, options?: PersonUpdateOptions): Promise<Person> {
    return mutation(this.ctx, async () => {
      const person = await loadForWrite(this.ctx, PERSON_RECORDS, id);
      const issues = new Issues();
      const previousOwner = person.owner?.id ?? null;
      await this.apply(person, input, issues, false);
      const template = await checkTodoTemplate(this.ctx, options, TodoTemplateType.PEOPLE, issues);
      issues.throwIfAny();
      // created_at/updated_at sent on update are ignored: clients PUT back what they read (DECISIONS).
      person.updatedAt = new Date();
      const newOwner = person.owner?.id ?? null;
      // v3 §4.4 deliver_reassignment_email; as for companies, nobody is emailed about their own change.
      if (ownerMailOwed(this.ctx, previousOwner, newOwner, options?.deliverReassignmentEmail)) {
        recordMail(this.ctx, newOwner, {
          kind: 'person_reassignment',
          subject: { type: 'Person', id: person.id },
          payload: { byUserId: this.ctx.viewer.userId },
        });
      }
      await this.storeDeals(person, input);
      await this.storeTodoTemplate(person, template);
      return person;
    });
  }

  /** v3 §4.4 `deal_ids`: the person's deals among those the viewer may see; unknown ids are ignored. */
  private async storeDeals(person: Person, input: PersonInput): Promise<void> {
    if (input.dealIds === undefined) return;
    await this.em.flush(); // the person needs its id
    await new DealService(this.ctx).setDealsOfPerson(person.id, input.dealIds);
  }

  /** v3 §4.4 check_for_duplicates: a *visible* Contact with the same last name and email (case-insensitive). */
  private async rejectDuplicate(person: Person): Promise<void> {
    const where = scopeOf(this.ctx, PERSON_RECORDS)
      .add(`p.type = ?`, PersonType.CONTACT)
      .add('lower(p.last_name) = lower(?)', person.lastName)
      .add(`lower(coalesce(p.email, '')) = lower(?)`, person.email ?? '');
    const rows = await this.em.execute<Array<{ id: number; first_name: string | null; last_name: string }>>(
      `select p.id, p.first_name, p.last_name from "people" p where ${where.sql} order by p.id limit 1`,
      where.params,
      'all',
    );
    if (rows.length === 0) return;
    const name = [rows[0].first_name, rows[0].last_name].filter(Boolean).join(' ');
    const email = person.email ? ` and email ${person.email}` : ' and no email';
    throw ValidationFailed.one('base', 'DUPLICATE', `Duplicate of ${name} (id ${rows[0].id}): a contact with the same last name${email} already exists`);
  }

  /** v3 §4.4 todo_template_id: the template's tasks, about the person (issue 14 §4). */
  private async storeTodoTemplate(person: Person, template: CheckedTodoTemplate | null): Promise<void> {
    if (!template) return;
    await this.em.flush(); // the person needs its id
    await applyTodoTemplate(this.ctx, template, 'Person', person.id, person.owner?.id ?? null);
  }

  private async apply(person: Person, input: PersonInput, issues: Issues, isNew: boolean): Promise<void> {
    dropUnstorableDates(input, ['createdAt', 'updatedAt', 'lastEmailedAt'], issues);
    const fields: PersonInput = { ...input, ...namesFromFullName(person, input, isNew) };
    // NUL is dropped before the blank check, so a last name of `\u0000` alone is blank.
    if (typeof fields.firstName === 'string') fields.firstName = withoutNul(fields.firstName).trim();
    if (typeof fields.lastName === 'string') fields.lastName = withoutNul(fields.lastName).trim();
    if ((fields.lastName === undefined && isNew) || (fields.lastName !== undefined && blank(fields.lastName))) {
      issues.blank('lastName');
      delete fields.lastName;
    }
    WRITES.assign(this.em, person, fields, issues, isNew);

    if (input.type != null && input.type !== person.type) {
      // Lead → Contact is a conversion (v3 conditions[person_converted]); back to Lead un-converts.
      person.convertedAt = person.type === PersonType.LEAD && input.type === PersonType.CONTACT ? new Date() : null;
      person.type = input.type;
    }
    // A form cannot send JSON null: a blank boolean means the default, false.
    if (input.unsubscribed !== undefined) person.unsubscribed = input.unsubscribed ?? false;
    if (input.bounced !== undefined) person.bounced = input.bounced ?? false;

    await new CompanyService(this.ctx).linkCompany(person, input, issues);
    await setRelation(this.ctx, person, 'owner', User, input.ownerId, (id) => accountUsers(this.ctx).load(id), issues);
    await setRelation(
      this.ctx,
      person,
      'leadStatus',
      ListItem,
      input.leadStatusId,
      (id) => new ListItemService(this.ctx).find(id, ListKind.LEAD_STATUS),
      issues,
    );
    await setRelation(
      this.ctx,
      person,
      'leadSource',
      ListItem,
      input.leadSourceId,
      (id) => new ListItemService(this.ctx).find(id, ListKind.LEAD_SOURCE),
      issues,
    );
    if (input.tagIds !== undefined) {
      // v3 §4.4: the tag set is replaced; unknown ids (or items of another list) are ignored.
      const wanted = [...new Set(input.tagIds ?? [])].filter(isValidId);
      const items = await this.ctx.loaders.byId(ListItem).loadMany(wanted);
      person.tagIds = items.filter((i) => i.kind === ListKind.CONTACT_TAG).map((i) => i.id);
    }
    await applyCustomFields(this.ctx, CustomFieldResource.PERSON, person, input, issues, isNew);
  }
}
