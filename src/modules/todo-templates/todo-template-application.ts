import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { isValidId } from '../../graphql/ids';
import { DateTime } from 'luxon';
import { CalendarAssociationType } from '../calendar/calendar-entry.entity';
import { CalendarEntryService } from '../calendar/calendar-entry.service';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { TodoTemplate, TodoTemplateType } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';

/**
 * A todo template applied to a person or a deal (v3 §4.4/§4.5 `todo_template_id`,
 * `todo_template_user_id`): the record of it. Its tasks are calendar entries, made in the same
 * transaction (`applyTodoTemplate`); the row says `applied`. Before the calendar existed an
 * application was kept `pending`; migration 20261130000002 made those tasks and marked them applied.
 */
@Entity({ tableName: 'todo_template_applications' })
@Index({ name: 'todo_template_applications_pending', properties: ['account', 'status'] })
export class TodoTemplateApplication {
  [OptionalProps]?: 'status' | 'createdAt';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => TodoTemplate, { deleteRule: 'cascade' })
  template!: TodoTemplate;

  /** `Person` or `Deal`. */
  @Property({ type: 'string', length: 20 })
  recordType!: string;

  @Property({ type: 'integer' })
  recordId!: number;

  /** Who owns the tasks (the viewer when not given). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  @Property({ type: 'string', length: 20, default: 'pending' })
  status: string = 'pending';

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

export interface TodoTemplateOptions {
  readonly todoTemplateId?: number | null;
  readonly todoTemplateUserId?: number | null;
}

/** A checked application: the template, and who owns its tasks (null: the record's owner). */
export interface CheckedTodoTemplate {
  readonly templateId: number;
  readonly userId: number | null;
}

/**
 * Checks the template options of a write (§3: an unknown template or one of the other type is a
 * user error naming `todoTemplateId`; an unknown user names `todoTemplateUserId`). Answers what to
 * apply once the record has its id, or null.
 */
export async function checkTodoTemplate(
  ctx: RequestContext,
  options: TodoTemplateOptions | undefined,
  type: TodoTemplateType,
  issues: Issues,
): Promise<CheckedTodoTemplate | null> {
  if (options?.todoTemplateUserId != null && !(await accountUsers(ctx).load(options.todoTemplateUserId))) issues.missing('todoTemplateUserId');
  if (options?.todoTemplateId == null) return null;
  const template = isValidId(options.todoTemplateId) ? await ctx.loaders.byId(TodoTemplate).load(options.todoTemplateId) : null;
  if (!template) {
    issues.missing('todoTemplateId');
    return null;
  }
  if (template.templateType !== null && template.templateType !== type) {
    issues.invalid('todoTemplateId', `is a template for ${template.templateType}, not ${type}`);
    return null;
  }
  return { templateId: template.id, userId: options.todoTemplateUserId ?? null };
}

/** Applications made in one request (one context): a template is applied to a record once per request. */
const appliedIn = new WeakMap<RequestContext, Set<string>>();

/**
 * Applies a checked template to a person or deal, inside the write's mutation (after the record
 * has its id): one task per item, in the item's order, named by its description, due `dueDate`
 * days after today in the owner's zone (no due date when null), in its event category and priority,
 * owned by `todo_template_user_id` (else the record's owner, else the viewer), associated with the
 * record; all in one INSERT. Recorded as an applied application. Once per request: the same
 * template on the same record again in this request adds nothing.
 */
export async function applyTodoTemplate(
  ctx: RequestContext,
  checked: CheckedTodoTemplate | null,
  recordType: 'Person' | 'Deal',
  recordId: number,
  recordOwnerId: number | null,
): Promise<number[]> {
  if (!checked) return [];
  const key = `${checked.templateId}:${recordType}:${recordId}`;
  const done = appliedIn.get(ctx) ?? new Set<string>();
  appliedIn.set(ctx, done);
  if (done.has(key)) return [];
  done.add(key);

  const em = ctx.em;
  const ownerId = checked.userId ?? recordOwnerId ?? ctx.viewer.userId;
  const [owner] = await em
    .getConnection()
    .execute<Array<{ zone: string }>>(
      `select coalesce(u.time_zone, a.time_zone) as zone from "users" u join "accounts" a on a.id = u.account_id where u.id = ? and u.account_id = ?`,
      [ownerId, ctx.viewer.accountId],
      'all',
    );
  const today = DateTime.fromJSDate(ctx.clock.now(), { zone: owner?.zone ?? ctx.viewer.timeZone });
  const items = await em.find(
    TodoTemplateItem,
    { account: ctx.viewer.accountId, todoTemplate: checked.templateId },
    { orderBy: { position: 'asc', id: 'asc' } },
  );
  const association = { type: recordType === 'Deal' ? CalendarAssociationType.DEAL : CalendarAssociationType.PERSON, id: recordId };
  const ids = await new CalendarEntryService(ctx).insertTasks(
    items.map((item) => ({
      ownerId,
      name: item.description,
      dueDate: item.dueDate === null ? null : today.plus({ days: item.dueDate }).toISODate(),
      categoryId: item.eventCategory?.id ?? null,
      calendarEntryPriorityId: item.calendarEntryPriority?.id ?? null,
      association,
    })),
  );
  em.persist(
    em.create(TodoTemplateApplication, {
      account: em.getReference(Account, ctx.viewer.accountId),
      template: em.getReference(TodoTemplate, checked.templateId),
      recordType,
      recordId,
      user: em.getReference(User, ownerId),
      status: 'applied',
      createdAt: ctx.clock.now(),
    }),
  );
  return ids;
}
