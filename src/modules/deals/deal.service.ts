import { Issues } from '../../common/errors';
import { centsOf, fromCents, MoneyError, showMoney, toMoney } from '../../common/money';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import type { ConnectionReads, Paging } from '../../db/keyset';
import type { Connection } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';
import { blank } from '../../kit/assign';
import { dateProblem } from '../../common/dates';
import { dropUnstorableDates, withoutNul } from '../common/input';
import { canSeeRecord, fromOf, listConnection, loadForWrite, scopeOf, setRelation } from '../common/resource';
import { DEAL_RECORDS } from './deal.visibility';
import { CompanyService } from '../companies/company.service';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { applyCustomFields } from '../custom-fields/custom-field-write';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';
import { customFieldSums, prepareCustomFieldSearch, type CustomFieldTotal } from '../custom-field-search';
import { DealStage } from '../deal-stages/deal-stage.entity';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { ListItemService } from '../lists/list-item.service';
import { Person } from '../people/person.entity';
import { PERSON_RECORDS } from '../people/person.visibility';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { applyTodoTemplate, checkTodoTemplate } from '../todo-templates/todo-template-application';
import { TodoTemplateType } from '../todo-templates/todo-template.entity';
import { Deal, DealCollaborator, DealPerson } from './deal.entity';
import { DEAL_FIELDS, type DealInput } from './deal.fields';
import { removeCloseDateTask, syncCloseDateTask } from './deal.close-date-task';
import type { DealCreateOptions, DealUpdateOptions } from './deal.inputs';

/** The fields the service writes itself; the kit copies the rest (deal.fields.ts). */
const WRITES = DEAL_FIELDS.writes([
  'status',
  'probability',
  'expectedCloseDate',
  'closedTime',
  'isArchived',
  'value',
  'valueInCents',
  'bonus',
  'commission',
  'commissionRate',
  'ownerId',
  'companyId',
  'companyName',
  'primaryContactId',
  'personIds',
  'sharedUserIds',
  'dealStageId',
  'dealLossReasonId',
  'sourceId',
  'customFields',
  'customFieldValues',
  'createdAt',
  'updatedAt',
]);

/** The most people and collaborators one deal takes (v3 `person_ids`, `shared_user_ids`). */
export const MAX_DEAL_PEOPLE = 200;

/** A probability that closes a deal (v3 §3: 0 lost, 100 won). */
const closes = (p: number | null | undefined) => p === 0 || p === 100;

/** Totals of money fields over every deal a filter matches (v3 `totals=true`), as decimal strings. */
export interface DealTotals {
  readonly value: string;
  readonly bonus: string;
  readonly commission: string;
  readonly count: number;
  /** Numeric and currency custom fields (DECISIONS: Responses), when asked for. */
  readonly customFields?: CustomFieldTotal[];
}

/** Deals' own steps (deal.resolver.ts): tenancy and visibility (owned or shared) on every read and write; v3 §2.5, §3, §4.5 rules; show is the record resource's default. */
export class DealService {
  constructor(private readonly ctx: RequestContext) {}

  private get decimals(): number {
    return this.ctx.viewer.currency.decimals;
  }

  /** A page of the deals the viewer may see that match `filter`, in `orderBy` order. */
  async list(
    filter: InstanceType<typeof DEAL_FIELDS.Filter> | null | undefined,
    orderBy: ReadonlyArray<InstanceType<typeof DEAL_FIELDS.Order>> | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
  ): Promise<Connection<Deal>> {
    await prepareCustomFieldSearch(this.ctx, CustomFieldResource.DEAL, filter);
    const condition = DEAL_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, DEAL_RECORDS).add(condition.sql, ...condition.params);
    return listConnection(this.ctx, DEAL_RECORDS, where, DEAL_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  /**
   * v3 `totals=true` (DECISIONS: Responses): sums over every matching deal, in SQL; with
   * `customFields`, also of every numeric and currency custom field (in the same statement).
   */
  async totals(filter: InstanceType<typeof DEAL_FIELDS.Filter> | null | undefined, options: { customFields?: boolean } = {}): Promise<DealTotals> {
    await prepareCustomFieldSearch(this.ctx, CustomFieldResource.DEAL, filter);
    const condition = DEAL_FIELDS.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, DEAL_RECORDS).add(condition.sql, ...condition.params);
    const sums = options.customFields ? customFieldSums(await customFieldDefs(this.ctx, CustomFieldResource.DEAL).load(), 'd', this.decimals) : null;
    const [row] = await this.ctx.em.execute<Array<{ value: string | null; bonus: string | null; commission: string | null; n: string }>>(
      `select sum(d.value) as value, sum(d.bonus) as bonus, sum(d.commission) as commission, count(*) as n${sums?.columns ?? ''} from ${fromOf(this.ctx, DEAL_RECORDS)} where ${where.sql}`,
      where.params,
      'all',
    );
    const sum = (v: string | null) => showMoney(v ?? '0', this.decimals)!;
    return {
      value: sum(row.value),
      bonus: sum(row.bonus),
      commission: sum(row.commission),
      count: Number(row.n),
      ...(sums ? { customFields: sums.read(row) } : {}),
    };
  }

  create(input: DealInput, options?: DealCreateOptions): Promise<Deal> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      const deal = em.create(Deal, { account: this.ctx.viewer.accountId, name: '', owner: this.ctx.viewer.userId }, { persist: false });
      const sets = await this.apply(deal, input, issues, true);
      // Imports keep their timestamps (v3 §2.5: created_at/updated_at writable); on create only.
      if (input.createdAt) deal.createdAt = input.createdAt;
      if (input.updatedAt) deal.updatedAt = input.updatedAt;
      else if (input.createdAt) deal.updatedAt = deal.createdAt;
      const template = await checkTodoTemplate(this.ctx, options, TodoTemplateType.DEALS, issues);
      issues.throwIfAny();
      deal.lastModifiedBy = em.getReference(User, this.ctx.viewer.userId);
      em.persist(deal);
      await em.flush();
      await this.storeSets(deal, sets, true);
      await syncCloseDateTask(this.ctx, deal, null);
      await applyTodoTemplate(this.ctx, template, 'Deal', deal.id, deal.owner?.id ?? null);
      return deal;
    });
  }

  update(id: number, input: DealInput, options?: DealUpdateOptions): Promise<Deal> {
    return mutation(this.ctx, async (em) => {
      const deal = await loadForWrite(this.ctx, DEAL_RECORDS, id);
      const before = { date: deal.expectedCloseDate, ownerId: deal.owner?.id ?? null };
      const issues = new Issues();
      const sets = await this.apply(deal, input, issues, false);
      const template = await checkTodoTemplate(this.ctx, options, TodoTemplateType.DEALS, issues);
      issues.throwIfAny();
      // created_at/updated_at sent on update are ignored: clients PUT back what they read (DECISIONS).
      deal.updatedAt = new Date();
      deal.lastModifiedBy = em.getReference(User, this.ctx.viewer.userId);
      await em.flush();
      await this.storeSets(deal, sets, false);
      await syncCloseDateTask(this.ctx, deal, before);
      await applyTodoTemplate(this.ctx, template, 'Deal', deal.id, deal.owner?.id ?? null);
      return deal;
    });
  }

  /** The deal's close-date task goes with it (its `deal_id` would only be nulled): a milestone of no deal means nothing. */
  delete(id: number): Promise<number> {
    return mutation(this.ctx, async (em) => {
      const deal = await loadForWrite(this.ctx, DEAL_RECORDS, id);
      const taskId = deal.expectedCloseDateEvent?.id ?? null;
      em.remove(deal);
      await em.flush();
      await removeCloseDateTask(this.ctx, taskId);
      return id;
    });
  }

  /**
   * A person's deals (v3 `deal_ids` on people): the set among the deals the viewer may see is
   * replaced; deals they cannot see keep their association (it is not theirs to change); unknown ids
   * are ignored. Called inside the person's mutation.
   */
  async setDealsOfPerson(personId: number, dealIds: readonly number[] | null): Promise<void> {
    const wanted = [...new Set((dealIds ?? []).filter(isValidId))].slice(0, MAX_DEAL_PEOPLE);
    const visible = scopeOf(this.ctx, DEAL_RECORDS);
    const em = this.ctx.em;
    // The deals whose sets change are locked first, in id order, as their versions will be
    // (migration 20261206000001): a deal's own update (its row, then its people) and this (its
    // people, then the row) would otherwise wait for each other.
    await em.execute(
      `select id from "deals" where account_id = ? and (id = any(?::int[]) or id in (select deal_id from "deal_people" where person_id = ?)) order by id for no key update`,
      [this.ctx.viewer.accountId, `{${wanted.join(',')}}`, personId],
    );
    await em.execute(`delete from "deal_people" dp using ${fromOf(this.ctx, DEAL_RECORDS)} where dp.deal_id = d.id and dp.person_id = ? and ${visible.sql}`, [
      personId,
      ...visible.params,
    ]);
    if (wanted.length === 0) return;
    await em.execute(
      `insert into "deal_people" (deal_id, person_id) select d.id, ? from ${fromOf(this.ctx, DEAL_RECORDS)} where d.id = any(?::int[]) and ${visible.sql} on conflict do nothing`,
      [personId, `{${wanted.join(',')}}`, ...visible.params],
    );
  }

  /** Applies the input; returns the people and collaborator sets to store once the deal has an id. */
  private async apply(deal: Deal, input: DealInput, issues: Issues, isNew: boolean): Promise<{ people?: number[]; shared?: number[] }> {
    dropUnstorableDates(input, ['createdAt', 'updatedAt', 'closedTime'], issues);
    const fields: DealInput = { ...input };
    if (typeof fields.name === 'string') fields.name = withoutNul(fields.name).trim();
    if ((fields.name === undefined && isNew) || (fields.name !== undefined && blank(fields.name))) {
      issues.blank('name');
      delete fields.name;
    }
    WRITES.assign(this.ctx.em, deal, fields, issues, isNew);

    if (input.status !== undefined) {
      if (input.status === null || [1, 2, 3].includes(input.status)) deal.status = input.status;
      else issues.invalid('status', 'must be 1 (red), 2 (yellow) or 3 (green)');
    }
    if (input.isArchived !== undefined) deal.isArchived = input.isArchived ?? false;
    if (input.expectedCloseDate !== undefined) {
      const date = input.expectedCloseDate;
      if (date === null || (typeof date === 'string' && dateProblem(date) === null)) deal.expectedCloseDate = date;
      else issues.invalid('expectedCloseDate', 'must be a date like 2026-01-31');
    }
    this.applyMoney(deal, input, issues);

    await setRelation(this.ctx, deal, 'owner', User, input.ownerId, (id) => accountUsers(this.ctx).load(id), issues);
    await new CompanyService(this.ctx).linkCompany(deal, input, issues);
    await setRelation(this.ctx, deal, 'primaryContact', Person, input.primaryContactId, (id) => this.visiblePerson(id), issues);
    await setRelation(
      this.ctx,
      deal,
      'lossReason',
      ListItem,
      input.dealLossReasonId,
      (id) => new ListItemService(this.ctx).find(id, ListKind.DEAL_LOSS_REASON),
      issues,
      'dealLossReasonId',
    );
    await setRelation(this.ctx, deal, 'source', ListItem, input.sourceId, (id) => new ListItemService(this.ctx).find(id, ListKind.LEAD_SOURCE), issues);
    await this.applyStage(deal, input, issues, isNew);

    await applyCustomFields(this.ctx, CustomFieldResource.DEAL, deal, input, issues, isNew);
    const sets: { people?: number[]; shared?: number[] } = {};
    if (input.personIds !== undefined) sets.people = await this.visiblePeople(input.personIds ?? []);
    if (input.sharedUserIds !== undefined) sets.shared = await this.accountUserIds(input.sharedUserIds ?? []);
    return sets;
  }

  /**
   * v3 §2.5 money: `value` as a decimal with the currency's places (number or string in); the
   * deprecated `valueInCents` stays in sync. A client PUTting back a whole record sends both: the
   * one that changed wins, `value` when both did.
   */
  private applyMoney(deal: Deal, input: DealInput, issues: Issues): void {
    const amount = (field: string, raw: unknown, places = this.decimals): string | null | undefined => {
      try {
        return toMoney(raw, places);
      } catch (error) {
        if (error instanceof MoneyError) issues.invalid(field, error.message);
        else throw error;
        return undefined;
      }
    };
    const current = showMoney(deal.value, this.decimals);
    let value: string | null | undefined;
    if (input.value !== undefined) value = amount('value', input.value);
    if (input.valueInCents !== undefined) {
      const cents = input.valueInCents;
      const fromCentsValue = cents === null ? null : Number.isSafeInteger(cents) ? fromCents(cents, this.decimals) : undefined;
      if (fromCentsValue === undefined) issues.invalid('valueInCents', 'must be a whole number of cents');
      else if (value === undefined || value === current) {
        const centsChanged = (fromCentsValue === null ? null : centsOf(fromCentsValue)) !== centsOf(current);
        if (value === undefined || centsChanged) value = fromCentsValue;
      }
    }
    if (value !== undefined) deal.value = value;
    for (const field of ['bonus', 'commission'] as const) {
      if (input[field] === undefined) continue;
      const v = amount(field, input[field]);
      if (v !== undefined) deal[field] = v;
    }
    if (input.commissionRate !== undefined) {
      const rate = amount('commissionRate', input.commissionRate, 4);
      if (rate !== undefined && rate !== null && (Number(rate) < 0 || Number(rate) > 100)) issues.outOfRange('commissionRate');
      else if (rate !== undefined) deal.commissionRate = rate;
    }
  }

  /**
   * v3 §3 and DECISIONS (States): a stage change sets the probability from the stage's percent;
   * probability 0 or 100 closes the deal (closedTime now unless given), 1 to 99 reopens it and
   * clears closedTime.
   */
  private async applyStage(deal: Deal, input: DealInput, issues: Issues, isNew: boolean): Promise<void> {
    const before = isNew ? null : deal.probability;
    const stageBefore = deal.stage?.id ?? null;
    let stage: DealStage | null = null;
    await setRelation(this.ctx, deal, 'stage', DealStage, input.dealStageId, async (id) => (stage = await this.stage(id)), issues, 'dealStageId');
    let probability = deal.probability;
    if (input.probability !== undefined) {
      if (input.probability === null || (Number.isInteger(input.probability) && input.probability >= 0 && input.probability <= 100))
        probability = input.probability;
      else issues.outOfRange('probability');
    }
    // The stage wins over a probability sent with it: a record PUT back whole carries the old one.
    const chosen = stage as DealStage | null;
    if (chosen && chosen.id !== stageBefore) probability = chosen.percent;
    deal.probability = probability;
    if (input.closedTime !== undefined) deal.closedTime = input.closedTime;
    if (closes(probability)) {
      // Closing now (it was open, or is new): closedTime is now unless given, to the second as v3
      // shows it, so a deal read and written back (an export imported back) keeps the same time.
      if ((isNew || !closes(before)) && input.closedTime == null) deal.closedTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    } else if (probability !== null) {
      deal.closedTime = null; // 1 to 99 reopens it
    }
  }

  /** Replaces the deal's people and collaborators (the join tables) with the sets given. */
  private async storeSets(deal: Deal, sets: { people?: number[]; shared?: number[] }, isNew: boolean): Promise<void> {
    const em = this.ctx.em;
    if (sets.people) {
      // Hidden people keep their association: the viewer cannot see them to remove them.
      if (!isNew) {
        const visible = scopeOf(this.ctx, PERSON_RECORDS);
        await em.execute(
          `delete from "deal_people" dp using ${fromOf(this.ctx, PERSON_RECORDS)} where dp.deal_id = ? and dp.person_id = p.id and ${visible.sql}`,
          [deal.id, ...visible.params],
        );
      }
      for (const personId of sets.people) em.persist(em.create(DealPerson, { deal, person: em.getReference(Person, personId) }));
    }
    if (sets.shared) {
      if (!isNew) await em.nativeDelete(DealCollaborator, { deal: deal.id });
      for (const userId of sets.shared) em.persist(em.create(DealCollaborator, { deal, user: em.getReference(User, userId) }));
    }
    if (sets.people || sets.shared) await em.flush();
  }

  private async visiblePeople(ids: readonly number[]): Promise<number[]> {
    const wanted = [...new Set(ids.filter(isValidId))].slice(0, MAX_DEAL_PEOPLE);
    if (wanted.length === 0) return [];
    const where = scopeOf(this.ctx, PERSON_RECORDS).add('p.id = any(?::int[])', `{${wanted.join(',')}}`);
    const rows = await this.ctx.em.execute<Array<{ id: number }>>(
      `select p.id from ${fromOf(this.ctx, PERSON_RECORDS)} where ${where.sql}`,
      where.params,
      'all',
    );
    const found = new Set(rows.map((r) => Number(r.id)));
    return wanted.filter((id) => found.has(id));
  }

  private async visiblePerson(id: number): Promise<Person | null> {
    const person = await this.ctx.loaders.byId(Person).load(id);
    return person && (await canSeeRecord(this.ctx, PERSON_RECORDS, person)) ? person : null;
  }

  private async accountUserIds(ids: readonly number[]): Promise<number[]> {
    const users = await accountUsers(this.ctx).all.load();
    return [...new Set(ids.filter((id) => users.has(id)))].slice(0, MAX_DEAL_PEOPLE);
  }

  private async stage(id: number): Promise<DealStage | null> {
    return this.ctx.loaders.byId(DealStage).load(id);
  }
}
