import { boolean, enumOf, id, read, recordId, text } from './field-table';
import { ACCOUNT_ID, integer, TIMESTAMPS } from './list-item';
import { v3Resource } from './resource-spec';

/**
 * DECISIONS (Admin surface): a todo template item as its template shows it: `{id, description,
 * due_date, event_category_id, event_category {id, name}, account_id, calendar_entry_priority_id}`
 * (`account_id` as recorded, issue 22 §4).
 */
const ITEM_IN_TEMPLATE =
  '{ id: databaseId description due_date: dueDate event_category_id: eventCategoryId event_category: eventCategory { id: databaseId name } account_id: accountId calendar_entry_priority_id: calendarEntryPriorityId }';

/** DECISIONS (Admin surface): `{id, name, template_type (people|deals|null), is_default, todo_template_items}`. */
export const todoTemplateResource = v3Resource({
  root: 'todo_template',
  type: 'TodoTemplate',
  fragment: 'TodoTemplateV3',
  requiredOnCreate: ['name'],
  fields: {
    id: recordId(),
    name: text('name'),
    // Recorded (issue 22 §4): `{id, name, account_id, template_type, is_default, ...}`.
    ...ACCOUNT_ID,
    template_type: enumOf('templateType', { people: 'PEOPLE', deals: 'DEALS' }),
    is_default: boolean('isDefault'),
    todo_template_items: read('items', 'plain', ITEM_IN_TEMPLATE),
    ...TIMESTAMPS,
  },
});

/**
 * DECISIONS (Admin surface): `/admin/todo_template_items.json`, created with
 * `{"todo_template_item": {"description", "todo_template_id", "event_category_id"}}`; `due_date` is
 * a day offset from when the template is applied (null: no due date).
 */
export const todoTemplateItemResource = v3Resource({
  root: 'todo_template_item',
  type: 'TodoTemplateItem',
  fragment: 'TodoTemplateItemV3',
  requiredOnCreate: ['description', 'todoTemplateId'],
  fields: {
    id: recordId(),
    description: text('description'),
    due_date: integer('dueDate'),
    todo_template_id: id('todoTemplateId'),
    // Recorded (issue 22 §4): an item shows its `account_id` after its template's id.
    ...ACCOUNT_ID,
    event_category_id: id('eventCategoryId'),
    event_category: read('eventCategory', 'plain', '{ id: databaseId name }'),
    calendar_entry_priority_id: id('calendarEntryPriorityId'),
    position: integer('position'),
    ...TIMESTAMPS,
  },
});
