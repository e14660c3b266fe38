import type { EntityManager } from '@mikro-orm/postgresql';
import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { loadForWrite, removeVisible, type Records } from '../common/resource';
import { accountWide, checkName, nameTaken, requireAdmin, writeUnique } from '../common/admin';
import { TodoTemplate } from './todo-template.entity';
import { TODO_TEMPLATE_FIELDS, type TodoTemplateInput } from './todo-template.fields';

/** DECISIONS (Paging): admin lists default to 200 entries a page. */
export const TODO_TEMPLATES_PAGE_SIZE = 200;

export const TODO_TEMPLATE_RECORDS: Records<TodoTemplate> = {
  entity: TodoTemplate,
  alias: 'tt',
  name: 'TodoTemplate',
  visibility: accountWide<TodoTemplate>(),
};

/** The kit copies templateType; the service applies name and isDefault itself. */
const WRITES = TODO_TEMPLATE_FIELDS.writes(['name', 'isDefault']);

const TABLE = 'todo_templates';
export const TEMPLATES = 'todo templates';

/** Todo templates (DECISIONS: Admin surface): every user of the account reads them, admins change them. */
export class TodoTemplateService {
  constructor(private readonly ctx: RequestContext) {}

  create(input: TodoTemplateInput): Promise<TodoTemplate> {
    requireAdmin(this.ctx, TEMPLATES);
    return writeUnique(this.ctx, async (em) => {
      const issues = new Issues();
      const name = checkName(input.name, issues);
      if (name !== null && (await nameTaken(this.ctx, TABLE, name, null))) issues.taken('name');
      const template = em.create(TodoTemplate, { account: this.ctx.viewer.accountId, name: name ?? '' }, { persist: false });
      WRITES.assign(em, template, input, issues, true);
      issues.throwIfAny();
      template.isDefault = input.isDefault === true;
      em.persist(template);
      await em.flush();
      if (template.isDefault) await this.onlyDefault(em, template);
      return template;
    });
  }

  update(id: number, input: TodoTemplateInput): Promise<TodoTemplate> {
    requireAdmin(this.ctx, TEMPLATES);
    return writeUnique(this.ctx, async (em) => {
      const template = await loadForWrite(this.ctx, TODO_TEMPLATE_RECORDS, id);
      const issues = new Issues();
      const name = input.name !== undefined ? checkName(input.name, issues) : null;
      if (name !== null && (await nameTaken(this.ctx, TABLE, name, template.id))) issues.taken('name');
      WRITES.assign(em, template, input, issues, false);
      issues.throwIfAny();
      if (name !== null) template.name = name;
      // null means "not the default", as false.
      if (input.isDefault !== undefined) template.isDefault = input.isDefault === true;
      template.updatedAt = new Date();
      await em.flush();
      if (template.isDefault) await this.onlyDefault(em, template);
      return template;
    });
  }

  /** Its items go with it (foreign key `on delete cascade`). */
  delete(id: number): Promise<number> {
    requireAdmin(this.ctx, TEMPLATES);
    return removeVisible(this.ctx, TODO_TEMPLATE_RECORDS, id);
  }

  /** At most one default template per type: the others of the account of the same type stop being it. */
  private async onlyDefault(em: EntityManager, template: TodoTemplate): Promise<void> {
    await em.execute(
      `update "${TABLE}" set is_default = false, updated_at = now() where account_id = ? and is_default and template_type is not distinct from ? and id <> ?`,
      [this.ctx.viewer.accountId, template.templateType, template.id],
      'run',
    );
  }
}
