import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { isValidId } from '../../graphql/ids';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { TodoTemplate, TodoTemplateType } from './todo-template.entity';

/**
 * A todo template applied to a person or a deal (v3 §4.4/§4.5 `todo_template_id`,
 * `todo_template_user_id`). Its tasks are calendar entries, which come with the calendar: until
 * then an application is kept here as `pending`, so none is lost; the calendar creates the tasks
 * from the pending rows and marks them applied.
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

/**
 * Checks the template options of a write (§3: an unknown template or one of the other type is a
 * user error naming `todoTemplateId`; an unknown user names `todoTemplateUserId`). Answers what to
 * record once the record has its id, or null.
 */
export async function checkTodoTemplate(ctx: RequestContext, options: TodoTemplateOptions | undefined, type: TodoTemplateType, issues: Issues): Promise<{ templateId: number; userId: number } | null> {
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
  return { templateId: template.id, userId: options.todoTemplateUserId ?? ctx.viewer.userId };
}

/** Records a checked application as pending (inside the write's mutation, after the record has its id). */
export function recordTodoTemplate(ctx: RequestContext, checked: { templateId: number; userId: number } | null, recordType: 'Person' | 'Deal', recordId: number): void {
  if (!checked) return;
  const em = ctx.em;
  em.persist(
    em.create(TodoTemplateApplication, {
      account: em.getReference(Account, ctx.viewer.accountId),
      template: em.getReference(TodoTemplate, checked.templateId),
      recordType,
      recordId,
      user: em.getReference(User, checked.userId),
    }),
  );
}
