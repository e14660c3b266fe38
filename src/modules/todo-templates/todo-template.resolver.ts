import { Ctx, Extensions, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { relationField } from '../../graphql/relations';
import type { ListSize } from '../../graphql/cost';
import { recordResource, SETTINGS_SCOPES } from '../common/record-resource';
import { ListItem } from '../lists/list-item.entity';
import { TodoTemplate } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';
import { TODO_TEMPLATE_FIELDS, TODO_TEMPLATE_ITEM_FIELDS, type TodoTemplateInput, type TodoTemplateItemInput } from './todo-template.fields';
import { itemsOfTemplate, MAX_ITEMS_PER_TEMPLATE } from './todo-template.loaders';
import { TODO_TEMPLATE_RECORDS, TODO_TEMPLATES_PAGE_SIZE, TodoTemplateService } from './todo-template.service';
import { TODO_TEMPLATE_ITEMS, TODO_TEMPLATE_ITEMS_PAGE_SIZE, TodoTemplateItemService } from './todo-template-item.service';

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';

/**
 * Todo templates (DECISIONS: Admin surface): readable by every user of the account, changed by
 * admins only. The generated list, lookup and mutations; create, update and delete are the
 * service's (admins only, unique names, one default per type).
 */
export const TODO_TEMPLATE_RESOURCE = recordResource({
  records: TODO_TEMPLATE_RECORDS,
  fields: TODO_TEMPLATE_FIELDS,
  singular: 'todoTemplate',
  plural: 'todoTemplates',
  scopes: SETTINGS_SCOPES,
  pageSize: TODO_TEMPLATES_PAGE_SIZE,
  docs: {
    list: `The account's todo templates. Every user of the account may read them. Default order: name, then databaseId; ${TODO_TEMPLATES_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which templates; all of them when absent.',
    show: "One todo template by databaseId; null when it does not exist in the viewer's account.",
    create: `Adds a todo template (without items). ${ADMINS_ONLY}`,
    update: `Changes a todo template: only the fields given. A missing template is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a todo template and its items. A missing template is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The template's databaseId.",
    input: 'The new template.',
    created: 'The created template',
    changed: 'The template as changed',
  },
  steps: {
    create: (ctx, input) => new TodoTemplateService(ctx).create(input as TodoTemplateInput),
    update: (ctx, id, input) => new TodoTemplateService(ctx).update(id, input as TodoTemplateInput),
    delete: (ctx, id) => new TodoTemplateService(ctx).delete(id),
  },
});

/**
 * The items of todo templates (their tasks), as their templates: the generated list, lookup and
 * mutations; create, update and delete are the service's (admins only, at most
 * MAX_ITEMS_PER_TEMPLATE a template, the template touched).
 */
export const TODO_TEMPLATE_ITEM_RESOURCE = recordResource({
  records: TODO_TEMPLATE_ITEMS,
  fields: TODO_TEMPLATE_ITEM_FIELDS,
  singular: 'todoTemplateItem',
  plural: 'todoTemplateItems',
  scopes: SETTINGS_SCOPES,
  pageSize: TODO_TEMPLATE_ITEMS_PAGE_SIZE,
  docs: {
    list: `Items of the account's todo templates (filter by todoTemplateId for one template's). Every user of the account may read them. Default order: template, then position; ${TODO_TEMPLATE_ITEMS_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which items; all of them when absent.',
    show: "One todo template item by databaseId; null when it does not exist in the viewer's account.",
    create: `Adds a task to a todo template of the account. ${ADMINS_ONLY}`,
    update: `Changes a todo template item: only the fields given (todoTemplateId moves it to another template of the account). A missing item is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a todo template item. A missing item is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The item's databaseId.",
    input: 'The new item.',
    created: 'The created item',
    changed: 'The item as changed',
  },
  steps: {
    create: (ctx, input) => new TodoTemplateItemService(ctx).create(input as TodoTemplateItemInput),
    update: (ctx, id, input) => new TodoTemplateItemService(ctx).update(id, input as TodoTemplateItemInput),
    delete: (ctx, id) => new TodoTemplateItemService(ctx).delete(id),
  },
});

@Resolver(() => TodoTemplate)
export class TodoTemplateFieldsResolver {
  @FieldResolver(() => [TodoTemplateItem], { description: `The template's tasks, in their order (at most ${MAX_ITEMS_PER_TEMPLATE}).` })
  // Bounded (the service refuses more): the cost of what is selected under it multiplies by it (cost.ts).
  @Extensions({ listSize: { max: MAX_ITEMS_PER_TEMPLATE } satisfies ListSize })
  items(@Root() template: TodoTemplate, @Ctx() ctx: RequestContext) {
    return itemsOfTemplate(ctx).load(template.id);
  }
}

@Resolver(() => TodoTemplateItem)
export class TodoTemplateItemFieldsResolver {
  @FieldResolver(() => ListItem, { nullable: true, description: "The item's event category (an item of the event categories list); null when none." })
  eventCategory(@Root() item: TodoTemplateItem, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, item.eventCategory?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: "The item's priority (an item of the calendar entry priorities list); null when none." })
  calendarEntryPriority(@Root() item: TodoTemplateItem, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, item.calendarEntryPriority?.id);
  }
}
