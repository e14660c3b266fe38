import type { CoreModule } from '../module';
import { TodoTemplate } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';
import { TodoTemplateApplication } from './todo-template-application';
import { TODO_TEMPLATE_ITEM_RESOURCE, TODO_TEMPLATE_RESOURCE, TodoTemplateFieldsResolver, TodoTemplateItemFieldsResolver } from './todo-template.resolver';

/** The account's todo templates and their items (admin lists with fields of their own). */
export const todoTemplatesModule: CoreModule = {
  name: 'todo-templates',
  entities: [TodoTemplate, TodoTemplateItem, TodoTemplateApplication],
  resolvers: [TODO_TEMPLATE_RESOURCE.resolver, TODO_TEMPLATE_ITEM_RESOURCE.resolver, TodoTemplateFieldsResolver, TodoTemplateItemFieldsResolver],
};
