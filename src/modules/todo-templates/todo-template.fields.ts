import { InputType } from 'type-graphql';
import { EnumFilterOf } from '../../graphql/filters';
import { defineResource, type InputOf } from '../../kit/fields';
import { TodoTemplate, TodoTemplateType } from './todo-template.entity';
import { TodoTemplateItem } from './todo-template-item.entity';

@InputType('TodoTemplateTypeFilter', { description: 'Conditions on what a todo template is meant for.' })
export class TodoTemplateTypeFilter extends EnumFilterOf(TodoTemplateType, 'template type') {}

/**
 * Every todo template field, once (DECISIONS: Admin surface: `{id, name, template_type,
 * is_default, todo_template_items}`): inputs, filter, order and their SQL derive from it.
 */
export const TODO_TEMPLATE_FIELDS = defineResource(
  {
    type: 'TodoTemplate',
    plural: 'todo templates',
    entity: TodoTemplate,
    alias: 'tt',
    defaultOrder: ['name'],
    createDoc: 'A new todo template: only name is required; add its tasks with createTodoTemplateItem.',
    updateDoc: 'Changes to a todo template: only the fields given change; null clears templateType (name cannot be cleared).',
    filterDoc: 'Which todo templates to list: every condition given must hold; compose with and, or, not.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The template's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    name: {
      kind: 'text',
      write: 'custom',
      required: true,
      createDoc: "Required; at most 100 characters; unique among the account's todo templates (case-insensitive).",
      updateDoc: "At most 100 characters; unique among the account's todo templates (case-insensitive); cannot be blank.",
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case (the default).' },
    },
    templateType: {
      kind: 'enum',
      enum: TodoTemplateType,
      write: 'auto',
      inputDoc: 'What the template is meant for: people or deals; null (or absent on create) for either.',
      filter: { input: () => TodoTemplateTypeFilter, doc: 'What the template is meant for.' },
    },
    isDefault: {
      kind: 'boolean',
      write: 'custom',
      inputDoc: 'Make it the default template of its type (the previous default of that type stops being one); false by default.',
      filter: { doc: 'Whether it is the default template of its type.' },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the template was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the template was last changed.' }, sort: { doc: 'Last change.' } },
  },
);

export type TodoTemplateInput = InputOf<typeof TODO_TEMPLATE_FIELDS.table>;

/** Every todo template item field, once (DECISIONS: Admin surface: `todo_template_items`). */
export const TODO_TEMPLATE_ITEM_FIELDS = defineResource(
  {
    type: 'TodoTemplateItem',
    plural: 'todo template items',
    entity: TodoTemplateItem,
    alias: 'ti',
    defaultOrder: ['todoTemplateId', 'position'],
    createDoc: 'A new task of a todo template: description and todoTemplateId are required; it goes to the end of its template unless a position is given.',
    updateDoc: 'Changes to a todo template item: only the fields given change; null clears dueDate, eventCategoryId and calendarEntryPriorityId.',
    filterDoc: 'Which todo template items to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key todo template items can be ordered by (default: template, then position).',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The item's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    description: {
      kind: 'text',
      write: 'custom',
      required: true,
      createDoc: 'Required: what to do; at most 255 characters.',
      updateDoc: 'What to do; at most 255 characters; cannot be blank.',
      filter: { doc: 'What to do.' },
    },
    todoTemplateId: {
      kind: 'ref',
      write: 'custom',
      required: true,
      inputDoc: 'databaseId of the todo template (of the account) the item belongs to; at most 100 items a template.',
      filter: { doc: 'The template (its databaseId).' },
      sort: { doc: "The template's databaseId." },
    },
    dueDate: {
      kind: 'int',
      write: 'custom',
      inputDoc: 'Days after the template is applied that the task is due, 0 to 3650; null for no due date.',
      filter: { doc: 'Days after the template is applied that the task is due.' },
    },
    eventCategoryId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of an event category (an item of the event categories list); null for none.',
      filter: { doc: 'The event category (its databaseId).' },
    },
    calendarEntryPriorityId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of a priority (an item of the calendar entry priorities list); null for none.',
      filter: { doc: 'The priority (its databaseId).' },
    },
    position: {
      kind: 'int',
      write: 'custom',
      createDoc: 'Place in its template (0 or more); the end of the template when absent.',
      updateDoc: 'Place in its template (0 or more); null leaves it.',
      sort: { doc: 'Place in its template.' },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the item was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the item was last changed.' }, sort: { doc: 'Last change.' } },
  },
);

export type TodoTemplateItemInput = InputOf<typeof TODO_TEMPLATE_ITEM_FIELDS.table>;
