import type { CoreModule } from '../module';
import { TodoTemplate } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';
import { TodoTemplateApplication } from './todo-template-application';
import { TodoTemplateFieldsResolver, TodoTemplateItemFieldsResolver, TodoTemplateResolver } from './todo-template.resolver';

/** The account's todo templates and their items (admin lists with fields of their own). */
export const todoTemplatesModule: CoreModule = {
  name: 'todo-templates',
  entities: [TodoTemplate, TodoTemplateItem, TodoTemplateApplication],
  resolvers: [TodoTemplateResolver, TodoTemplateFieldsResolver, TodoTemplateItemFieldsResolver],
};
