import { LockMode } from '@mikro-orm/core';
import { Issues, NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { SettledLoader } from '../../context/loaders';
import { mutation } from '../../context/transaction';
import type { ConnectionReads, Paging } from '../../db/keyset';
import { findOneRow } from '../../db/list-query';
import { type Where, withoutNul } from '../../db/sql';
import type { Connection } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';
import { dateProblem, instantProblem, NOT_A_DATE } from '../../common/dates';
import { findForWrite, findVisible, fromOf, listConnection, scopeOf, setRelation } from '../common/resource';
import { Company } from '../companies/company.entity';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { ListItemService } from '../lists/list-item.service';
import { Person } from '../people/person.entity';
import { PERSON_RECORDS } from '../people/person.visibility';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { CalendarAssociationType, CalendarEntry, CalendarEntryKind } from './calendar-entry.entity';
import { CALENDAR_ENTRY_RECORDS } from './calendar-entry.visibility';
import { CALENDAR_ENTRY_FIELDS, type CalendarEntryFilter, type CalendarEntryInput, type CalendarEntryOrder } from './calendar-entry.fields';
import { pinPeriods } from './calendar-entry.periods';
import { anchorOf, rebuildSeries, rulesOf } from './calendar-entry.series';
import { hasRecurrence, normalizeRecurrence, RecurrenceInvalid, type RecurrenceField } from './recurrence';

export { CALENDAR_ENTRY_RECORDS } from './calendar-entry.visibility';

const CALENDAR_WRITES = CALENDAR_ENTRY_FIELDS.writes([
  'kind',
  'ownerId',
  'categoryId',
  'calendarEntryPriorityId',
  'startTime',
  'endTime',
  'allDay',
  'dueDate',
  'complete',
  'associationType',
  'associationId',
  'companyId',
  'active',
  'rrule',
  'rdate',
  'exrule',
  'exdate',
]);

/** The recurrence fields, as the input and the errors name them. */
const RULE_FIELDS: readonly RecurrenceField[] = ['rrule', 'rdate', 'exrule', 'exdate'];

/** Whether a filter lists inactive entries too: `includeInactive: true` or a condition on `active`, at its top level or inside `and`. */
export function listsInactive(filter: CalendarEntryFilter | null | undefined): boolean {
  if (!filter) return false;
  const f = filter as { includeInactive?: boolean | null; active?: unknown; and?: CalendarEntryFilter[] | null };
  if (f.includeInactive === true || f.active != null) return true;
  return (f.and ?? []).some((child) => listsInactive(child));
}

/**
 * The SQL condition of a calendar filter for the viewer: its relative conditions (today, this
 * week, late, within…) pinned to the viewer's zone and the request's clock, and the entries of
 * deleted series left out unless the filter asks for them.
 */
export function calendarCondition(ctx: RequestContext, filter: CalendarEntryFilter | null | undefined, argument?: string): { sql: string; params: unknown[] } {
  const pinned = pinPeriods(filter, { timeZone: ctx.viewer.timeZone, now: ctx.clock.now() });
  const condition = CALENDAR_ENTRY_FIELDS.filterSql(ctx, pinned, argument);
  return listsInactive(filter) ? condition : { sql: `ce.active and (${condition.sql})`, params: condition.params };
}

/** Which of a batch of entry ids the viewer may see (active ones only): one statement per batch (node(), writes, baseEntry). */
export function visibleEntryIds(ctx: RequestContext): SettledLoader<boolean> {
  return ctx.loaders.memo(
    'calendar-entries:visible',
    () =>
      new SettledLoader<boolean>(async (ids) => {
        const where = scopeOf(ctx, CALENDAR_ENTRY_RECORDS)
          .add('ce.active')
          .add('ce.id = any(?::int[])', `{${ids.join(',')}}`);
        const rows = await ctx.em.execute<Array<{ id: number }>>(
          `select ce.id from ${fromOf(ctx, CALENDAR_ENTRY_RECORDS)} where ${where.sql}`,
          where.params,
          'all',
        );
        const found = new Set(rows.map((r) => Number(r.id)));
        return ids.map((id) => found.has(id));
      }),
  );
}

/** Entries by id for node(id:) and `baseEntry`: the by-id loader (tenancy), then the visibility statement; inactive ones are null. */
export async function findVisibleEntries(ctx: RequestContext, ids: readonly number[]): Promise<Array<CalendarEntry | null>> {
  const valid = ids.filter(isValidId);
  const [rows, visible] = await Promise.all([
    Promise.all(ids.map((id) => (isValidId(id) ? ctx.loaders.byId(CalendarEntry).load(id) : null))),
    Promise.all(valid.map((id) => visibleEntryIds(ctx).load(id))),
  ]);
  const seen = new Map(valid.map((id, i) => [id, visible[i]]));
  return rows.map((row) => (row && seen.get(row.id) ? row : null));
}

/**
 * The managed entry, when it exists in the account, is active and the viewer may see it; NotFound
 * otherwise (v3: 404). Inside a mutation its row is locked until the commit, so two changes of one
 * series (a rebuild, a delete) run one after the other.
 */
export async function loadEntryForWrite(ctx: RequestContext, id: number | null | undefined): Promise<CalendarEntry> {
  if (id == null || !isValidId(id)) throw new NotFoundError('CalendarEntry', id ?? 0);
  return findForWrite(ctx, 'CalendarEntry', CalendarEntry, id, async (options) => {
    const entry = await ctx.em.findOne(
      CalendarEntry,
      { id, account: ctx.viewer.accountId, active: true },
      ctx.em.isInTransaction() ? { lockMode: LockMode.PESSIMISTIC_WRITE, ...options } : options,
    );
    return entry && (await visibleEntryIds(ctx).load(id)) ? entry : null;
  });
}

/** A rule field as stored: trimmed text, null for blank. */
function ruleText(value: string | null | undefined): string | null {
  if (value == null) return null;
  const text = withoutNul(value).trim();
  return text === '' ? null : text;
}

/** What changing an entry may change about its series. */
interface Before {
  readonly rules: string;
  readonly times: string;
}

const rulesKey = (e: CalendarEntry) => JSON.stringify([e.rrule, e.rdate, e.exrule, e.exdate]);
const timesKey = (e: CalendarEntry) => JSON.stringify([e.startTime?.getTime() ?? null, e.endTime?.getTime() ?? null, e.dueDate, e.allDay]);

/** What the delete did: every id it removed or deactivated, and whether it deactivated a series. */
export interface CalendarDeletion {
  readonly id: number;
  readonly ids: readonly number[];
  readonly seriesDeactivated: boolean;
}

/** A task made by the service itself (todo templates): every reference already checked by the caller. */
export interface NewTask {
  readonly ownerId: number;
  readonly name: string;
  readonly description?: string | null;
  /** YYYY-MM-DD, or null for someday. */
  readonly dueDate: string | null;
  readonly categoryId?: number | null;
  readonly calendarEntryPriorityId?: number | null;
  readonly association?: { readonly type: CalendarAssociationType; readonly id: number } | null;
}

/**
 * Calendar entries (v3 §2.1, §3, §4.1): tasks and events, their conditions in the viewer's time
 * zone, and recurring series stored as entries (calendar-entry.series.ts). Every write runs in one
 * transaction (`mutation`), so a refused input writes nothing.
 */
export class CalendarEntryService {
  constructor(private readonly ctx: RequestContext) {}

  /** The visible entries matching `filter` (tenancy, visibility, the active rule and the pinned periods) as a Where on `ce`. */
  where(filter: CalendarEntryFilter | null | undefined, argument?: string): Where {
    const condition = calendarCondition(this.ctx, filter, argument);
    return scopeOf(this.ctx, CALENDAR_ENTRY_RECORDS).add(condition.sql, ...condition.params);
  }

  list(
    filter: CalendarEntryFilter | null | undefined,
    orderBy: readonly CalendarEntryOrder[] | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
  ): Promise<Connection<CalendarEntry>> {
    return listConnection(this.ctx, CALENDAR_ENTRY_RECORDS, this.where(filter), CALENDAR_ENTRY_FIELDS.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  /** Up to `limit` (at most 1000) visible entries matching `filter`, in `orderBy`'s order: for feeds and occurrence views. */
  async entries(
    filter: CalendarEntryFilter | null | undefined,
    orderBy: readonly CalendarEntryOrder[] | null | undefined,
    limit = 1000,
  ): Promise<CalendarEntry[]> {
    const perPage = Math.max(1, Math.min(1000, Math.trunc(limit)));
    const page = await this.list(filter, orderBy, { kind: 'offset', page: 1, perPage, offset: 0 }, { total: false, cursors: false });
    return [...page.nodes];
  }

  /** One active entry the viewer may see, or null (a hidden, missing or inactive one alike). */
  get(id: number): Promise<CalendarEntry | null> {
    if (!isValidId(id)) return Promise.resolve(null);
    return findOneRow(
      this.ctx.em,
      CalendarEntry,
      fromOf(this.ctx, CALENDAR_ENTRY_RECORDS),
      'ce',
      id,
      scopeOf(this.ctx, CALENDAR_ENTRY_RECORDS).add('ce.active'),
    );
  }

  create(input: CalendarEntryInput): Promise<CalendarEntry> {
    return mutation(this.ctx, async (em) => {
      const now = this.ctx.clock.now();
      const issues = new Issues();
      const kind = input.kind ?? null;
      if (kind === null) issues.blank('kind');
      const entry = em.create(
        CalendarEntry,
        {
          account: this.ctx.viewer.accountId,
          kind: kind ?? CalendarEntryKind.TASK,
          owner: this.ctx.viewer.userId,
          timeZone: this.ctx.viewer.timeZone,
          allDay: kind !== CalendarEntryKind.EVENT,
          createdAt: now,
          updatedAt: now,
        },
        { persist: false },
      );
      await this.apply(entry, input, issues, true);
      issues.throwIfAny();
      em.persist(entry);
      await em.flush();
      if (hasRecurrence(rulesOf(entry))) await rebuildSeries(this.ctx, entry, false);
      return entry;
    });
  }

  update(id: number, input: CalendarEntryInput): Promise<CalendarEntry> {
    return mutation(this.ctx, async (em) => {
      const entry = await loadEntryForWrite(this.ctx, id);
      const before: Before = { rules: rulesKey(entry), times: timesKey(entry) };
      const heads = entry.baseEntry === null && (entry.partOfRecurringSeries || hasRecurrence(rulesOf(entry)));
      const issues = new Issues();
      await this.apply(entry, input, issues, false);
      issues.throwIfAny();
      const rulesChanged = rulesKey(entry) !== before.rules;
      const timesChanged = timesKey(entry) !== before.times;
      // The zone a series repeats in: the writer's, whenever its rule or times are set.
      if (rulesChanged || timesChanged) entry.timeZone = this.ctx.viewer.timeZone;
      entry.updatedAt = this.ctx.clock.now();
      await em.flush();
      // v3 §3 / issue 14 §3: the base's rule or times changed → the series' future is rebuilt. An
      // occurrence changes alone (completing one touches only it).
      if (entry.baseEntry === null && (rulesChanged || timesChanged) && (heads || hasRecurrence(rulesOf(entry)))) await rebuildSeries(this.ctx, entry, true);
      return entry;
    });
  }

  /**
   * DECISIONS (States: calendar entry): deleting any entry of a recurring series deactivates the
   * whole series, base and occurrences (`active` false), and answers every id of it; an entry of
   * no series is removed and answers its own id.
   */
  delete(id: number): Promise<CalendarDeletion> {
    return mutation(this.ctx, async (em) => {
      const entry = await loadEntryForWrite(this.ctx, id);
      const baseId = entry.baseEntry?.id ?? entry.id;
      if (entry.partOfRecurringSeries || entry.baseEntry !== null) {
        const rows = await em.execute<Array<{ id: number }>>(
          `update "calendar_entries" set "active" = false, "updated_at" = ? where "account_id" = ? and ("id" = ? or "base_entry_id" = ?) returning "id"`,
          [this.ctx.clock.now(), this.ctx.viewer.accountId, baseId, baseId],
          'all',
        );
        const ids = rows.map((r) => Number(r.id)).sort((a, b) => (a === baseId ? -1 : b === baseId ? 1 : a - b));
        return { id, ids, seriesDeactivated: true };
      }
      em.remove(entry);
      await em.flush();
      return { id, ids: [id], seriesDeactivated: false };
    });
  }

  /**
   * Tasks the service makes itself (todo templates applied to a deal or person): one INSERT for
   * all of them, in the caller's transaction. The caller has checked every reference (owner a
   * user of the account, category and priority items of its lists, the associated record).
   * Answers the new ids in the order given.
   */
  async insertTasks(tasks: readonly NewTask[]): Promise<number[]> {
    if (tasks.length === 0) return [];
    return mutation(this.ctx, async (em) => {
      const now = this.ctx.clock.now();
      const rows = tasks.map((t, i) => ({
        i,
        owner_id: t.ownerId,
        name: t.name.slice(0, 255),
        description: t.description ?? null,
        due_date: t.dueDate,
        category_id: t.categoryId ?? null,
        priority_id: t.calendarEntryPriorityId ?? null,
        association_type: t.association?.type ?? null,
        deal_id: t.association?.type === CalendarAssociationType.DEAL ? t.association.id : null,
        person_id: t.association?.type === CalendarAssociationType.PERSON ? t.association.id : null,
        company_id: t.association?.type === CalendarAssociationType.COMPANY ? t.association.id : null,
      }));
      const inserted = await em.execute<Array<{ id: number }>>(
        `insert into "calendar_entries" ("account_id", "kind", "owner_id", "name", "description", "due_date", "category_id", "calendar_entry_priority_id", "association_type", "deal_id", "person_id", "company_id",
            "all_day", "time_zone", "complete", "active", "part_of_recurring_series", "created_at", "updated_at")
         select ?, 'task', r.owner_id, r.name, r.description, r.due_date, r.category_id, r.priority_id, r.association_type, r.deal_id, r.person_id, r.company_id, true, ?, false, true, false, ?, ?
           from jsonb_to_recordset(?::jsonb) as r(i int, owner_id int, name text, description text, due_date date, category_id int, priority_id int, association_type text, deal_id int, person_id int, company_id int)
           order by r.i
         returning "id"`,
        [this.ctx.viewer.accountId, this.ctx.viewer.timeZone, now, now, JSON.stringify(rows)],
        'all',
      );
      return inserted.map((r) => Number(r.id));
    });
  }

  /** Applies the input to `entry` (new or managed), collecting every problem in `issues`. */
  private async apply(entry: CalendarEntry, input: CalendarEntryInput, issues: Issues, isNew: boolean): Promise<void> {
    const ctx = this.ctx;
    CALENDAR_WRITES.assign(ctx.em, entry, input, issues, isNew);

    if (input.ownerId === null) issues.blank('ownerId');
    else await setRelation(ctx, entry, 'owner', User, input.ownerId, (id) => accountUsers(ctx).load(id), issues, 'ownerId');
    const lists = new ListItemService(ctx);
    await setRelation(ctx, entry, 'category', ListItem, input.categoryId, (id) => lists.find(id, ListKind.EVENT_CATEGORY), issues, 'categoryId');
    await setRelation(
      ctx,
      entry,
      'calendarEntryPriority',
      ListItem,
      input.calendarEntryPriorityId,
      (id) => lists.find(id, ListKind.CALENDAR_ENTRY_PRIORITY),
      issues,
      'calendarEntryPriorityId',
    );

    this.applyTimes(entry, input, issues, isNew);

    // v3 §3: complete false→true sets completed_at; true→false clears it.
    if (input.complete !== undefined) {
      if (input.complete === null) issues.blank('complete');
      else if (input.complete !== entry.complete) {
        entry.complete = input.complete;
        entry.completedAt = input.complete ? ctx.clock.now() : null;
      }
    }

    // `active` false hides the entry as a delete would; on update, this entry alone (a series' other entries stay).
    if (input.active !== undefined) {
      if (input.active === null) issues.blank('active');
      else if (isNew || input.active === false) entry.active = input.active;
    }

    await this.applyLinks(entry, input, issues, isNew);
    this.applyRules(entry, input, issues);
  }

  /** Kind-specific times: a task's due date, an event's start and end (both required, end not before start). */
  private applyTimes(entry: CalendarEntry, input: CalendarEntryInput, issues: Issues, isNew: boolean): void {
    const event = entry.kind === CalendarEntryKind.EVENT;
    if (input.allDay !== undefined) {
      if (input.allDay === null) issues.blank('allDay');
      else entry.allDay = input.allDay;
    }
    if (event) {
      if (input.dueDate != null) issues.invalid('dueDate', 'is only for tasks (an event has a start and an end time)');
      const refused = new Set<string>();
      for (const field of ['startTime', 'endTime'] as const) {
        const value = input[field];
        if (value === undefined) continue;
        // The entry keeps the writer's zone (its series' wall time, its v3 times): in range there too.
        const problem = value === null ? null : instantProblem(value, this.ctx.viewer.timeZone);
        if (problem === null) entry[field] = value;
        else {
          issues.add(field, 'OUT_OF_RANGE', problem);
          refused.add(field);
        }
      }
      // A time refused above is not also blank.
      if (entry.startTime === null && !refused.has('startTime') && (isNew || input.startTime !== undefined)) issues.blank('startTime');
      if (entry.endTime === null && !refused.has('endTime') && (isNew || input.endTime !== undefined)) issues.blank('endTime');
      if (entry.startTime && entry.endTime && entry.endTime.getTime() < entry.startTime.getTime())
        issues.invalid('endTime', 'must not be before the start time');
      return;
    }
    for (const field of ['startTime', 'endTime'] as const) if (input[field] != null) issues.invalid(field, 'is only for events (a task has a due date)');
    if (input.dueDate !== undefined) {
      const date = input.dueDate === null ? '' : withoutNul(input.dueDate).trim();
      const problem = date === '' ? null : dateProblem(date);
      if (problem === null) entry.dueDate = date === '' ? null : date;
      else issues.add('dueDate', problem === NOT_A_DATE ? 'INVALID' : 'OUT_OF_RANGE', problem);
    }
  }

  /**
   * The association (`associationType` + `associationId`: a deal, person or company the viewer may
   * see) and the company the entry is tied to (`companyId`). A company association is the company
   * column itself: when `associationId` and `companyId` disagree, the one that changed wins (the
   * association when both did, which is a 422 on create); leaving a company association keeps that
   * company as `companyId` unless `companyId` says otherwise.
   */
  private async applyLinks(entry: CalendarEntry, input: CalendarEntryInput, issues: Issues, isNew: boolean): Promise<void> {
    const ctx = this.ctx;
    const beforeType = entry.associationType;
    const beforeId = entry.associationId;
    const beforeCompany = entry.company?.id ?? null;
    const type = input.associationType !== undefined ? input.associationType : beforeType;
    const id = input.associationId !== undefined ? input.associationId : beforeId;
    const company = input.companyId !== undefined ? input.companyId : beforeCompany;
    const associationChanged = type !== beforeType || id !== beforeId;
    const companyChanged = company !== beforeCompany;

    const findCompany = async (companyId: number, field: string): Promise<boolean> => {
      const found = await findVisible(ctx, COMPANY_RECORDS, companyId);
      if (!found) issues.missing(field);
      else entry.company = ctx.em.getReference(Company, found.id);
      return found !== null;
    };

    if (associationChanged) {
      if (type == null && id == null) {
        if (beforeType === CalendarAssociationType.DEAL) entry.deal = null;
        if (beforeType === CalendarAssociationType.PERSON) entry.person = null;
        entry.associationKind = null;
      } else if (type == null) issues.blank('associationType');
      else if (id == null) issues.blank('associationId');
      else {
        if (type === CalendarAssociationType.COMPANY && companyChanged && company !== id) {
          // Both name the entry's company, differently: on create (nothing to prefer) a 422; on update the association wins below.
          if (isNew) issues.invalid('companyId', 'must be the associated company when the association type is Company');
        }
        let found: boolean;
        if (type === CalendarAssociationType.DEAL) {
          const deal = await findVisible(ctx, DEAL_RECORDS, id);
          if (deal) entry.deal = ctx.em.getReference(Deal, deal.id);
          found = deal !== null;
        } else if (type === CalendarAssociationType.PERSON) {
          const person = await findVisible(ctx, PERSON_RECORDS, id);
          if (person) entry.person = ctx.em.getReference(Person, person.id);
          found = person !== null;
        } else {
          const c = await findVisible(ctx, COMPANY_RECORDS, id);
          if (c) entry.company = ctx.em.getReference(Company, c.id);
          found = c !== null;
        }
        if (!found) issues.missing('associationId');
        else {
          // The old association's own column goes (a company stays as the company the entry is tied to).
          if (beforeType === CalendarAssociationType.DEAL && type !== CalendarAssociationType.DEAL) entry.deal = null;
          if (beforeType === CalendarAssociationType.PERSON && type !== CalendarAssociationType.PERSON) entry.person = null;
          entry.associationKind = type;
        }
      }
      // A company association took the company column; otherwise `companyId` applies on its own.
      if (type !== CalendarAssociationType.COMPANY && companyChanged) {
        if (company === null) entry.company = null;
        else await findCompany(company, 'companyId');
      }
      return;
    }
    if (!companyChanged) return;
    if (company === null) {
      entry.company = null;
      // The company was the association: there is none left.
      if (type === CalendarAssociationType.COMPANY) entry.associationKind = null;
    } else await findCompany(company, 'companyId');
  }

  /**
   * The recurrence rules (RFC 5545), on an entry of no series or a series' base only: a rule on an
   * occurrence is refused (it repeats with its base). Checked by recurrence.ts against the series'
   * anchor (an event's start, a task's due date in the writer's zone); a problem is a 422 naming the field.
   */
  private applyRules(entry: CalendarEntry, input: CalendarEntryInput, issues: Issues): void {
    const occurrence = entry.baseEntry !== null;
    let given = false;
    for (const field of RULE_FIELDS) {
      if (input[field] === undefined) continue;
      const text = ruleText(input[field]);
      if (occurrence) {
        if (text !== null) issues.invalid(field, 'can only be set on the base entry of its series');
        continue;
      }
      given = true;
      entry[field] = text;
    }
    // Checked when the rules or the times they repeat from are written.
    const timesGiven = input.startTime !== undefined || input.endTime !== undefined || input.dueDate !== undefined || input.allDay !== undefined;
    if (occurrence || !(given || timesGiven)) return;
    const rules = rulesOf(entry);
    if (RULE_FIELDS.every((field) => rules[field] === null)) return;
    const anchor = anchorOf({ kind: entry.kind, startTime: entry.startTime, dueDate: entry.dueDate, timeZone: this.ctx.viewer.timeZone, allDay: entry.allDay });
    if (!anchor) {
      // A task repeats from its due date; an event without a start is refused already.
      if (entry.kind === CalendarEntryKind.TASK) issues.blank('dueDate');
      return;
    }
    try {
      // Stored in their canonical form (a rule sent back as read is then no change).
      const normalized = normalizeRecurrence(rules, anchor);
      for (const field of RULE_FIELDS) entry[field] = normalized[field];
    } catch (error) {
      if (!(error instanceof RecurrenceInvalid)) throw error;
      issues.invalid(error.field, error.message);
    }
  }
}
