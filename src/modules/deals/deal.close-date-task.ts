import type { RequestContext } from '../../context/context';
import { CalendarAssociationType, CalendarEntry } from '../calendar/calendar-entry.entity';
import { CalendarEntryService } from '../calendar/calendar-entry.service';
import { ListKind } from '../lists/list-item.entity';
import type { Deal } from './deal.entity';

/**
 * A deal's expected close date is a calendar task (v3 §2.5 `expected_close_date_event_id`, "id of
 * the expected-close-date calendar entry"). As the official client's recording shows it
 * (pipelinedeals_api PipelineDeals_Deal_calendar_entries.yml): a CalendarTask named "Expected close
 * date", due that day, in the "Milestone" event category, about the deal, owned by the deal's owner.
 */
export const CLOSE_DATE_TASK_NAME = 'Expected close date';
export const MILESTONE_CATEGORY = 'Milestone';

/** What the deal was before the write: its date, its owner and its task. */
export interface CloseDateBefore {
  readonly date: string | null;
  readonly ownerId: number | null;
}

/**
 * Keeps the deal's task in step with its write, in the write's transaction (after the deal is
 * flushed): a date set where there was none (or whose task was deleted since) makes the task; a
 * changed date moves it; a cleared date deletes it; a new owner of the deal becomes the task's
 * owner (the task is the deal's milestone, not a to-do of whoever set the date). Nothing else is
 * touched: a write that changes neither date nor owner issues no statement here, so a task someone
 * deleted on purpose comes back only when the date is set again.
 */
export async function syncCloseDateTask(ctx: RequestContext, deal: Deal, before: CloseDateBefore | null): Promise<void> {
  const date = deal.expectedCloseDate;
  const ownerId = deal.owner?.id ?? null;
  const dateChanged = before === null ? date !== null : date !== before.date;
  const ownerChanged = before !== null && ownerId !== before.ownerId;
  if (!dateChanged && !ownerChanged) return;
  const em = ctx.em;
  // The link as committed now, not as loaded: the write's UPDATE holds the deal's row, so a
  // concurrent write of the same deal that made a task meanwhile is seen (no second task).
  const taskId = before === null ? null : await linkedTask(ctx, deal.id);
  if ((deal.expectedCloseDateEvent?.id ?? null) !== taskId) deal.expectedCloseDateEvent = taskId === null ? null : em.getReference(CalendarEntry, taskId);
  if (!dateChanged && taskId === null) return;

  if (date === null) {
    if (taskId === null) return;
    deal.expectedCloseDateEvent = null;
    await em.flush();
    await removeCloseDateTask(ctx, taskId);
    return;
  }
  // An owner gone (a deleted user) leaves the task to the viewer, as todo templates do.
  const taskOwner = ownerId ?? ctx.viewer.userId;
  if (taskId !== null) {
    // The date or the owner moves with the deal; a task deactivated since (its series deleted) is replaced.
    const moved = await em.execute<Array<{ id: number }>>(
      `update "calendar_entries" set "due_date" = ?, "owner_id" = ?, "updated_at" = ? where "id" = ? and "account_id" = ? and "active" returning "id"`,
      [date, taskOwner, ctx.clock.now(), taskId, ctx.viewer.accountId],
      'all',
    );
    if (moved.length > 0) return;
  }
  const categoryId = await milestoneCategory(ctx);
  const [id] = await new CalendarEntryService(ctx).insertTasks([
    { ownerId: taskOwner, name: CLOSE_DATE_TASK_NAME, dueDate: date, categoryId, association: { type: CalendarAssociationType.DEAL, id: deal.id } },
  ]);
  deal.expectedCloseDateEvent = em.getReference(CalendarEntry, id);
  await em.flush();
}

async function linkedTask(ctx: RequestContext, dealId: number): Promise<number | null> {
  const [row] = await ctx.em.execute<Array<{ id: number | null }>>(
    `select "expected_close_date_event_id" as id from "deals" where "id" = ? and "account_id" = ?`,
    [dealId, ctx.viewer.accountId],
    'all',
  );
  return row?.id == null ? null : Number(row.id);
}

/** Deletes a deal's close-date task (the deal is deleted, or its date cleared): without its deal it means nothing. */
export async function removeCloseDateTask(ctx: RequestContext, taskId: number | null): Promise<void> {
  if (taskId === null) return;
  await ctx.em.execute(`delete from "calendar_entries" where "id" = ? and "account_id" = ?`, [taskId, ctx.viewer.accountId], 'run');
}

/**
 * The account's "Milestone" event category (its name ignoring case, as the list's unique index
 * does), made at the end of the list when there is none: the service's own item, so no admin is
 * needed. A concurrent write making it too loses at the unique index and reads the winner's.
 */
async function milestoneCategory(ctx: RequestContext): Promise<number> {
  const em = ctx.em;
  const params = [ctx.viewer.accountId, ListKind.EVENT_CATEGORY, MILESTONE_CATEGORY];
  const find = async () =>
    (
      await em.execute<Array<{ id: number }>>(
        `select "id" from "list_items" where "account_id" = ? and "kind" = ? and lower("name") = lower(?) limit 1`,
        params,
        'all',
      )
    )[0]?.id;
  const found = await find();
  if (found != null) return Number(found);
  const made = await em.execute<Array<{ id: number }>>(
    `insert into "list_items" ("account_id", "kind", "name", "position", "created_at", "updated_at")
     select ?, ?, ?, least(coalesce(max(l."position")::bigint + 1, 0), 2147483647)::int, now(), now()
       from "list_items" l where l."account_id" = ? and l."kind" = ?
     on conflict do nothing returning "id"`,
    [...params, ctx.viewer.accountId, ListKind.EVENT_CATEGORY],
    'all',
  );
  return Number(made[0]?.id ?? (await find()));
}
