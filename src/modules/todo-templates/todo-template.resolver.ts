import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { relationField } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import type { ListSize } from '../../graphql/cost';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { findManyVisible } from '../common/resource';
import { ListItem } from '../lists/list-item.entity';
import { TodoTemplate } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';
import { TODO_TEMPLATE, TODO_TEMPLATE_ITEM, type TodoTemplateInput, type TodoTemplateItemInput } from './todo-template.fields';
import { itemsOfTemplate, MAX_ITEMS_PER_TEMPLATE } from './todo-template.loaders';
import { TODO_TEMPLATES, TODO_TEMPLATES_PAGE_SIZE, TodoTemplateService } from './todo-template.service';
import { TODO_TEMPLATE_ITEMS, TODO_TEMPLATE_ITEMS_PAGE_SIZE, TodoTemplateItemService } from './todo-template-item.service';

@ObjectType('TodoTemplateConnection', { description: 'A page of todo templates, with cursors.' })
export class TodoTemplateConnection extends ConnectionOf(TodoTemplate, 'TodoTemplate', 'todo templates') {}

@ObjectType('TodoTemplateItemConnection', { description: 'A page of todo template items, with cursors.' })
export class TodoTemplateItemConnection extends ConnectionOf(TodoTemplateItem, 'TodoTemplateItem', 'todo template items') {}

@ObjectType('CreateTodoTemplatePayload', { description: 'The result of createTodoTemplate.' })
class CreateTodoTemplatePayload extends RecordPayload(TodoTemplate, 'todoTemplate', 'The created template') {}

@ObjectType('UpdateTodoTemplatePayload', { description: 'The result of updateTodoTemplate.' })
class UpdateTodoTemplatePayload extends RecordPayload(TodoTemplate, 'todoTemplate', 'The template as changed') {}

@ObjectType('DeleteTodoTemplatePayload', { description: 'The result of deleteTodoTemplate.' })
class DeleteTodoTemplatePayload extends DeletePayload {}

@ObjectType('CreateTodoTemplateItemPayload', { description: 'The result of createTodoTemplateItem.' })
class CreateTodoTemplateItemPayload extends RecordPayload(TodoTemplateItem, 'todoTemplateItem', 'The created item') {}

@ObjectType('UpdateTodoTemplateItemPayload', { description: 'The result of updateTodoTemplateItem.' })
class UpdateTodoTemplateItemPayload extends RecordPayload(TodoTemplateItem, 'todoTemplateItem', 'The item as changed') {}

@ObjectType('DeleteTodoTemplateItemPayload', { description: 'The result of deleteTodoTemplateItem.' })
class DeleteTodoTemplateItemPayload extends DeletePayload {}

registerNode({ name: 'TodoTemplate', entity: TodoTemplate, find: (ctx, ids) => findManyVisible(ctx, TODO_TEMPLATES, ids) });
registerNode({ name: 'TodoTemplateItem', entity: TodoTemplateItem, find: (ctx, ids) => findManyVisible(ctx, TODO_TEMPLATE_ITEMS, ids) });

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';
const ORDER_DOC = 'Ordering keys, at most 5; databaseId breaks ties.';

/** Todo templates and their items (DECISIONS: Admin surface): readable by every user of the account, changed by admins only. */
@Resolver()
export class TodoTemplateResolver {
  @Query(() => TodoTemplateConnection, {
    description: `The account's todo templates. Every user of the account may read them. Default order: name, then databaseId; ${TODO_TEMPLATES_PAGE_SIZE} a page unless asked otherwise.`,
  })
  todoTemplates(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => TODO_TEMPLATE.Filter, { nullable: true, description: 'Which templates; all of them when absent.' })
    filter?: InstanceType<typeof TODO_TEMPLATE.Filter>,
    @Arg('orderBy', () => [TODO_TEMPLATE.Order], { nullable: true, description: ORDER_DOC }) orderBy?: Array<InstanceType<typeof TODO_TEMPLATE.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<TodoTemplate>> {
    return new TodoTemplateService(ctx).list(filter, orderBy, pagingOf(args, TODO_TEMPLATES_PAGE_SIZE), connectionReads(info));
  }

  @Query(() => TodoTemplate, { nullable: true, description: "One todo template by databaseId; null when it does not exist in the viewer's account." })
  todoTemplate(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The template's databaseId." }) id: number) {
    return new TodoTemplateService(ctx).find(id);
  }

  @Query(() => TodoTemplateItemConnection, {
    description: `Items of the account's todo templates (filter by todoTemplateId for one template's). Every user of the account may read them. Default order: template, then position; ${TODO_TEMPLATE_ITEMS_PAGE_SIZE} a page unless asked otherwise.`,
  })
  todoTemplateItems(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => TODO_TEMPLATE_ITEM.Filter, { nullable: true, description: 'Which items; all of them when absent.' })
    filter?: InstanceType<typeof TODO_TEMPLATE_ITEM.Filter>,
    @Arg('orderBy', () => [TODO_TEMPLATE_ITEM.Order], { nullable: true, description: ORDER_DOC })
    orderBy?: Array<InstanceType<typeof TODO_TEMPLATE_ITEM.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<TodoTemplateItem>> {
    return new TodoTemplateItemService(ctx).list(filter, orderBy, pagingOf(args, TODO_TEMPLATE_ITEMS_PAGE_SIZE), connectionReads(info));
  }

  @Query(() => TodoTemplateItem, { nullable: true, description: "One todo template item by databaseId; null when it does not exist in the viewer's account." })
  todoTemplateItem(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The item's databaseId." }) id: number) {
    return new TodoTemplateItemService(ctx).find(id);
  }

  @Mutation(() => CreateTodoTemplatePayload, { description: `Adds a todo template (without items). ${ADMINS_ONLY}` })
  createTodoTemplate(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => TODO_TEMPLATE.CreateInput, { description: 'The new template.' }) input: TodoTemplateInput,
  ) {
    return recordPayload('todoTemplate', () => new TodoTemplateService(ctx).create(input));
  }

  @Mutation(() => UpdateTodoTemplatePayload, {
    description: `Changes a todo template: only the fields given. A missing template is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  updateTodoTemplate(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The template's databaseId." }) id: number,
    @Arg('input', () => TODO_TEMPLATE.UpdateInput, { description: 'The changes.' }) input: TodoTemplateInput,
  ) {
    return recordPayload('todoTemplate', () => new TodoTemplateService(ctx).update(id, input));
  }

  @Mutation(() => DeleteTodoTemplatePayload, {
    description: `Deletes a todo template and its items. A missing template is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  deleteTodoTemplate(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The template's databaseId." }) id: number) {
    return deletePayload('TodoTemplate', () => new TodoTemplateService(ctx).delete(id));
  }

  @Mutation(() => CreateTodoTemplateItemPayload, { description: `Adds a task to a todo template of the account. ${ADMINS_ONLY}` })
  createTodoTemplateItem(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => TODO_TEMPLATE_ITEM.CreateInput, { description: 'The new item.' }) input: TodoTemplateItemInput,
  ) {
    return recordPayload('todoTemplateItem', () => new TodoTemplateItemService(ctx).create(input));
  }

  @Mutation(() => UpdateTodoTemplateItemPayload, {
    description: `Changes a todo template item: only the fields given (todoTemplateId moves it to another template of the account). A missing item is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  updateTodoTemplateItem(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The item's databaseId." }) id: number,
    @Arg('input', () => TODO_TEMPLATE_ITEM.UpdateInput, { description: 'The changes.' }) input: TodoTemplateItemInput,
  ) {
    return recordPayload('todoTemplateItem', () => new TodoTemplateItemService(ctx).update(id, input));
  }

  @Mutation(() => DeleteTodoTemplateItemPayload, { description: `Deletes a todo template item. A missing item is a NOT_FOUND user error. ${ADMINS_ONLY}` })
  deleteTodoTemplateItem(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The item's databaseId." }) id: number) {
    return deletePayload('TodoTemplateItem', () => new TodoTemplateItemService(ctx).delete(id));
  }
}

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
