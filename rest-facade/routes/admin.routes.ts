import { FacadeInputError } from '../errors/facade-error';
import type { ConditionTable } from '../request/conditions';
import { dealStageResource } from '../resources/deal-stage';
import {
  calendarEntryPriorityResource,
  dealLossReasonResource,
  dealWonReasonResource,
  documentTagResource,
  eventCategoryResource,
  leadSourceResource,
  leadStatusResource,
  noteCategoryResource,
  predefinedContactsTagResource,
} from '../resources/list-item';
import type { V3Resource } from '../resources/resource-spec';
import { todoTemplateItemResource, todoTemplateResource } from '../resources/todo-template';
import type { RouteHooks, RouteSpec } from './route-spec';

/**
 * DECISIONS (Admin surface): every admin list is read by every user of the account and written by
 * its admins: index (envelope; DECISIONS Paging: 200 a page by default and at most), show, create
 * (`{<singular>: {...}}`, 200 with the item), update, delete (200, empty body). A non-admin write is
 * a FORBIDDEN error, answered 403 {"error"} (rest-facade/errors/map-errors.ts).
 */
export function adminList(
  path: string,
  resource: V3Resource,
  ops: {
    readonly plural: string;
    readonly singular: string;
    readonly list: string;
    readonly show: string;
    readonly create: string;
    readonly update: string;
    readonly delete: string;
  },
  extra: Partial<Pick<RouteSpec, 'conditions' | 'queryFilters'>> & { readonly createHooks?: RouteHooks } = {},
): RouteSpec[] {
  const { createHooks, ...listExtra } = extra;
  const base = { resource, errorShape: 'array' } as const;
  return [
    {
      ...base,
      method: 'GET',
      path: `/admin/${path}`,
      op: `List${ops.plural}`,
      kind: 'list',
      result: ops.list,
      paging: { default: 200, max: 200 },
      ...listExtra,
    },
    { ...base, method: 'GET', path: `/admin/${path}/:id`, op: `Show${ops.singular}`, kind: 'show', result: ops.show },
    {
      ...base,
      method: 'POST',
      path: `/admin/${path}`,
      op: `Create${ops.singular}`,
      kind: 'create',
      result: `${ops.create}.${ops.show}`,
      ...(createHooks ? { hooks: createHooks } : {}),
    },
    { ...base, method: 'PUT', path: `/admin/${path}/:id`, op: `Update${ops.singular}`, kind: 'update', result: `${ops.update}.${ops.show}` },
    { ...base, method: 'DELETE', path: `/admin/${path}/:id`, op: `Delete${ops.singular}`, kind: 'delete', result: ops.delete, deleteBody: 'empty' },
  ];
}

/** A list of ListItem: its own query for the index, the generic item mutations (the operations name the kind). */
export const listItems = (path: string, resource: V3Resource, plural: string, singular: string, list: string): RouteSpec[] =>
  adminList(path, resource, { plural, singular, list, show: 'listItem', create: 'createListItem', update: 'updateListItem', delete: 'deleteListItem' });

/**
 * A create without a required number (a stage's percent, an item's template). The facade sends a
 * missing required field as blank so that the core names it (`toGraphQLInput`); blank text is
 * the core's to refuse, but a blank number cannot reach it (an `Int!` variable), so the route
 * answers the 422 itself, naming the v3 field (DECISIONS: Status codes and bodies).
 */
function requiredNumbers(fields: Readonly<Record<string, string>>): RouteHooks {
  return {
    variables: (variables) => {
      const input = variables.input as Record<string, unknown> | undefined;
      for (const [to, v3] of Object.entries(fields)) if (input?.[to] === '' || input?.[to] === null) throw new FacadeInputError(v3, "can't be blank");
      return variables;
    },
  };
}

/** `/admin/todo_template_items.json?conditions[todo_template_id]=N` (or `?todo_template_id=N`): one template's items. */
const TEMPLATE_ITEM_CONDITIONS: ConditionTable = { todo_template_id: { to: 'todoTemplateId', kind: 'ids' } };

export const ADMIN_ROUTES: readonly RouteSpec[] = [
  ...listItems('lead_statuses', leadStatusResource, 'LeadStatuses', 'LeadStatus', 'leadStatuses'),
  // DECISIONS (Wording): "predefined the service tags" are predefined_contacts_tags.
  ...listItems('predefined_contacts_tags', predefinedContactsTagResource, 'PredefinedContactsTags', 'PredefinedContactsTag', 'contactTags'),
  ...listItems('note_categories', noteCategoryResource, 'NoteCategories', 'NoteCategory', 'noteCategories'),
  ...listItems('lead_sources', leadSourceResource, 'LeadSources', 'LeadSource', 'leadSources'),
  ...listItems('deal_loss_reasons', dealLossReasonResource, 'DealLossReasons', 'DealLossReason', 'dealLossReasons'),
  ...listItems('deal_won_reasons', dealWonReasonResource, 'DealWonReasons', 'DealWonReason', 'dealWonReasons'),
  ...listItems('event_categories', eventCategoryResource, 'EventCategories', 'EventCategory', 'eventCategories'),
  ...listItems('document_tags', documentTagResource, 'DocumentTags', 'DocumentTag', 'documentTags'),
  ...listItems('calendar_entry_priorities', calendarEntryPriorityResource, 'CalendarEntryPriorities', 'CalendarEntryPriority', 'calendarEntryPriorities'),
  ...adminList(
    'deal_stages',
    dealStageResource,
    {
      plural: 'DealStages',
      singular: 'DealStage',
      list: 'dealStages',
      show: 'dealStage',
      create: 'createDealStage',
      update: 'updateDealStage',
      delete: 'deleteDealStage',
    },
    { createHooks: requiredNumbers({ percent: 'percent' }) },
  ),
  ...adminList('todo_templates', todoTemplateResource, {
    plural: 'TodoTemplates',
    singular: 'TodoTemplate',
    list: 'todoTemplates',
    show: 'todoTemplate',
    create: 'createTodoTemplate',
    update: 'updateTodoTemplate',
    delete: 'deleteTodoTemplate',
  }),
  ...adminList(
    'todo_template_items',
    todoTemplateItemResource,
    {
      plural: 'TodoTemplateItems',
      singular: 'TodoTemplateItem',
      list: 'todoTemplateItems',
      show: 'todoTemplateItem',
      create: 'createTodoTemplateItem',
      update: 'updateTodoTemplateItem',
      delete: 'deleteTodoTemplateItem',
    },
    { conditions: TEMPLATE_ITEM_CONDITIONS, queryFilters: TEMPLATE_ITEM_CONDITIONS, createHooks: requiredNumbers({ todoTemplateId: 'todo_template_id' }) },
  ),
];
