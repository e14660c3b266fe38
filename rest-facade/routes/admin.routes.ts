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
import type { RouteDeclaration, RouteHooks, RouteSpec } from './route-spec';

/**
 * DECISIONS (Admin surface): every admin list is read by every user of the account and written by
 * its admins: index (envelope; DECISIONS Paging: 200 a page by default and at most), show, create
 * (`{<singular>: {...}}`, 200 with the item), update, delete (200, empty body). A non-admin write is
 * a FORBIDDEN error, answered 403 {"error"} (rest-facade/errors/map-errors.ts).
 */
export function adminList(
  path: string,
  resource: V3Resource,
  fields: { readonly list: string; readonly show: string; readonly create: string; readonly update: string; readonly delete: string },
  extra: Partial<Pick<RouteSpec, 'conditions' | 'queryFilters' | 'args'>> & { readonly createHooks?: RouteHooks } = {},
): RouteDeclaration[] {
  const { createHooks, conditions, queryFilters, args } = extra;
  const base = { resource, errorShape: 'array', ...(args ? { args } : {}) } as const;
  return [
    {
      ...base,
      method: 'GET',
      path: `/admin/${path}`,
      kind: 'list',
      result: fields.list,
      paging: { default: 200, max: 200 },
      ...(conditions ? { conditions } : {}),
      ...(queryFilters ? { queryFilters } : {}),
    },
    { ...base, method: 'GET', path: `/admin/${path}/:id`, kind: 'show', result: fields.show },
    {
      ...base,
      method: 'POST',
      path: `/admin/${path}`,
      kind: 'create',
      result: `${fields.create}.${fields.show}`,
      ...(createHooks ? { hooks: createHooks } : {}),
    },
    { ...base, method: 'PUT', path: `/admin/${path}/:id`, kind: 'update', result: `${fields.update}.${fields.show}` },
    { ...base, method: 'DELETE', path: `/admin/${path}/:id`, kind: 'delete', result: fields.delete, deleteBody: 'empty' },
  ];
}

/** A list of ListItem: its own query for the index, the generic item mutations, which name the list (`kind: LEAD_STATUS`). */
export const listItems = (path: string, resource: V3Resource, list: string, kind: string): RouteDeclaration[] =>
  adminList(path, resource, { list, show: 'listItem', create: 'createListItem', update: 'updateListItem', delete: 'deleteListItem' }, { args: { kind } });

/** The usual names of a resource's fields: `dealStages`, `dealStage`, `createDealStage`... */
export const fieldsOf = (plural: string, singular: string) => {
  const pascal = singular[0].toUpperCase() + singular.slice(1);
  return { list: plural, show: singular, create: `create${pascal}`, update: `update${pascal}`, delete: `delete${pascal}` };
};

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

export const ADMIN_ROUTES: readonly RouteDeclaration[] = [
  ...listItems('lead_statuses', leadStatusResource, 'leadStatuses', 'LEAD_STATUS'),
  // DECISIONS (Wording): "predefined the service tags" are predefined_contacts_tags.
  ...listItems('predefined_contacts_tags', predefinedContactsTagResource, 'contactTags', 'CONTACT_TAG'),
  ...listItems('note_categories', noteCategoryResource, 'noteCategories', 'NOTE_CATEGORY'),
  ...listItems('lead_sources', leadSourceResource, 'leadSources', 'LEAD_SOURCE'),
  ...listItems('deal_loss_reasons', dealLossReasonResource, 'dealLossReasons', 'DEAL_LOSS_REASON'),
  ...listItems('deal_won_reasons', dealWonReasonResource, 'dealWonReasons', 'DEAL_WON_REASON'),
  ...listItems('event_categories', eventCategoryResource, 'eventCategories', 'EVENT_CATEGORY'),
  ...listItems('document_tags', documentTagResource, 'documentTags', 'DOCUMENT_TAG'),
  ...listItems('calendar_entry_priorities', calendarEntryPriorityResource, 'calendarEntryPriorities', 'CALENDAR_ENTRY_PRIORITY'),
  ...adminList('deal_stages', dealStageResource, fieldsOf('dealStages', 'dealStage'), { createHooks: requiredNumbers({ percent: 'percent' }) }),
  ...adminList('todo_templates', todoTemplateResource, fieldsOf('todoTemplates', 'todoTemplate')),
  ...adminList('todo_template_items', todoTemplateItemResource, fieldsOf('todoTemplateItems', 'todoTemplateItem'), {
    conditions: TEMPLATE_ITEM_CONDITIONS,
    queryFilters: TEMPLATE_ITEM_CONDITIONS,
    createHooks: requiredNumbers({ todoTemplateId: 'todo_template_id' }),
  }),
];
