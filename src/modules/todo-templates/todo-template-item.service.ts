import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Issues } from '../../common/errors';
import { Account } from '../accounts/account.entity';
import type { RequestContext } from '../../context/context';
import { isValidId } from '../../graphql/ids';
import { loadForWrite, removeVisible, setRelation, type Records } from '../common/resource';
import { accountWide, checkName, checkRange, requireAdmin } from '../common/admin';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { ListItemService } from '../lists/list-item.service';
import { mutation } from '../../context/transaction';
import { TodoTemplate } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';
import { TODO_TEMPLATE_ITEM_FIELDS, type TodoTemplateItemInput } from './todo-template.fields';
import { MAX_ITEMS_PER_TEMPLATE } from './todo-template.loaders';
import { TEMPLATES } from './todo-template.service';

export const TODO_TEMPLATE_ITEMS_PAGE_SIZE = 200;

export const TODO_TEMPLATE_ITEMS: Records<TodoTemplateItem> = {
  entity: TodoTemplateItem,
  alias: 'ti',
  name: 'TodoTemplateItem',
  visibility: accountWide<TodoTemplateItem>(),
};

/** Every writable field is the service's own (checked once, when the module loads). */
TODO_TEMPLATE_ITEM_FIELDS.writes(['description', 'todoTemplateId', 'dueDate', 'eventCategoryId', 'calendarEntryPriorityId', 'position']);

/** Days ahead a task may be due: ten years. */
const MAX_DUE_DAYS = 3650;
const MAX_DESCRIPTION = 255;
const INT_MAX = 2_147_483_647;

/**
 * Items of todo templates (DECISIONS: Admin surface: `todo_template_items`): every user of the
 * account reads them; admins change them, in templates of the account only, at most
 * MAX_ITEMS_PER_TEMPLATE a template (the template row is locked while an item joins it, so
 * concurrent creates cannot pass the bound).
 */
export class TodoTemplateItemService {
  constructor(private readonly ctx: RequestContext) {}

  create(input: TodoTemplateItemInput): Promise<TodoTemplateItem> {
    requireAdmin(this.ctx, TEMPLATES);
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      const description = checkName(input.description, issues, 'description', MAX_DESCRIPTION);
      const template = await this.joinTemplate(em, input.todoTemplateId ?? null, null, issues);
      // Built apart, persisted only once every field passed (a refused input writes nothing).
      const item = new TodoTemplateItem();
      await this.apply(item, input, issues);
      issues.throwIfAny();
      item.account = em.getReference(Account, this.ctx.viewer.accountId);
      item.todoTemplate = template!;
      item.description = description!;
      item.position = input.position ?? (await this.nextPosition(em, template!.id));
      template!.updatedAt = new Date();
      em.persist(item);
      await em.flush();
      return item;
    });
  }

  update(id: number, input: TodoTemplateItemInput): Promise<TodoTemplateItem> {
    requireAdmin(this.ctx, TEMPLATES);
    return mutation(this.ctx, async (em) => {
      const item = await loadForWrite(this.ctx, TODO_TEMPLATE_ITEMS, id);
      const issues = new Issues();
      const description = input.description !== undefined ? checkName(input.description, issues, 'description', MAX_DESCRIPTION) : null;
      const moving = input.todoTemplateId !== undefined && input.todoTemplateId !== item.todoTemplate.id;
      const template = moving ? await this.joinTemplate(em, input.todoTemplateId ?? null, item.id, issues) : null;
      if (input.position === null) issues.blank('position');
      await this.apply(item, input, issues);
      issues.throwIfAny();
      if (description !== null) item.description = description;
      if (template) {
        await this.touch(em, item.todoTemplate.id);
        item.todoTemplate = template;
        if (input.position == null) item.position = await this.nextPosition(em, template.id);
      }
      await this.touch(em, item.todoTemplate.id);
      item.updatedAt = new Date();
      await em.flush();
      return item;
    });
  }

  delete(id: number): Promise<number> {
    requireAdmin(this.ctx, TEMPLATES);
    return mutation(this.ctx, async (em) => {
      const item = await loadForWrite(this.ctx, TODO_TEMPLATE_ITEMS, id);
      await this.touch(em, item.todoTemplate.id);
      return removeVisible(this.ctx, TODO_TEMPLATE_ITEMS, id);
    });
  }

  /** Due date, position, event category and priority, as given (each checked; a reference must name an item of its list in the account). */
  private async apply(item: TodoTemplateItem, input: TodoTemplateItemInput, issues: Issues): Promise<void> {
    checkRange(input.dueDate, 'dueDate', 0, MAX_DUE_DAYS, issues);
    checkRange(input.position, 'position', 0, INT_MAX, issues);
    if (input.dueDate !== undefined) item.dueDate = input.dueDate;
    if (input.position != null) item.position = input.position;
    const lists = new ListItemService(this.ctx);
    await setRelation(this.ctx, item, 'eventCategory', ListItem, input.eventCategoryId, (id) => lists.find(id, ListKind.EVENT_CATEGORY), issues);
    await setRelation(
      this.ctx,
      item,
      'calendarEntryPriority',
      ListItem,
      input.calendarEntryPriorityId,
      (id) => lists.find(id, ListKind.CALENDAR_ENTRY_PRIORITY),
      issues,
    );
  }

  /**
   * The template an item joins: of the account, locked for the rest of the transaction (so the
   * count of its items holds), with room for one more. Null when refused (the issue is recorded).
   */
  private async joinTemplate(em: EntityManager, id: number | null, itemId: number | null, issues: Issues): Promise<TodoTemplate | null> {
    if (id === null) {
      issues.blank('todoTemplateId');
      return null;
    }
    const template = isValidId(id)
      ? await em.findOne(TodoTemplate, { id, account: this.ctx.viewer.accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!template) {
      issues.missing('todoTemplateId');
      return null;
    }
    const [{ n }] = await em.execute<Array<{ n: string }>>(
      'select count(*) as n from "todo_template_items" where todo_template_id = ? and id <> ?',
      [template.id, itemId ?? 0],
      'all',
    );
    if (Number(n) >= MAX_ITEMS_PER_TEMPLATE) {
      issues.add('todoTemplateId', 'OUT_OF_RANGE', `has too many items (maximum is ${MAX_ITEMS_PER_TEMPLATE})`);
      return null;
    }
    return template;
  }

  private async nextPosition(em: EntityManager, templateId: number): Promise<number> {
    const [{ next }] = await em.execute<Array<{ next: number }>>(
      'select least(coalesce(max(position)::bigint + 1, 0), 2147483647)::int as next from "todo_template_items" where todo_template_id = ?',
      [templateId],
      'all',
    );
    return Number(next);
  }

  /** A template's items changed: so did the template. */
  private async touch(em: EntityManager, templateId: number): Promise<void> {
    await em.execute('update "todo_templates" set updated_at = now() where id = ? and account_id = ?', [templateId, this.ctx.viewer.accountId], 'run');
  }
}
