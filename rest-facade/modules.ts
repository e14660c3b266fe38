import { accountResource } from './resources/account';
import { changeResource } from './resources/change';
import { webhookResource } from './resources/webhook';
import { calendarEntryResource, calendarFeedResource } from './resources/calendar-entry';
import { accountNotificationResource, accountNotificationUpdateResource } from './resources/account-notification';
import { companyResource } from './resources/company';
import { conversationCreatedResource, conversationResource } from './resources/conversation';
import { CUSTOM_FIELD_RESOURCES } from './resources/custom-field';
import { dealResource } from './resources/deal';
import { dealStageResource } from './resources/deal-stage';
import { documentResource } from './resources/document';
import { commentResource } from './resources/comment';
import { noteResource } from './resources/note';
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
} from './resources/list-item';
import { personResource } from './resources/person';
import { savedSearchResource } from './resources/saved-search';
import { todoTemplateItemResource, todoTemplateResource } from './resources/todo-template';
import type { V3Resource } from './resources/resource-spec';
import { userResource } from './resources/user';
import { ACCOUNT_NOTIFICATION_ROUTES } from './routes/account-notifications.routes';
import { ADMIN_ROUTES } from './routes/admin.routes';
import { CHANGE_ROUTES } from './routes/changes.routes';
import { WEBHOOK_ROUTES } from './routes/webhooks.routes';
import { CALENDAR_ENTRY_ROUTES } from './routes/calendar-entries.routes';
import { COMPANY_ROUTES } from './routes/companies.routes';
import { CONVERSATION_ROUTES } from './routes/conversations.routes';
import { CUSTOM_FIELD_ROUTES } from './routes/custom-fields.routes';
import { DEAL_ROUTES } from './routes/deals.routes';
import { DOCUMENT_ROUTES } from './routes/documents.routes';
import { NOTE_ROUTES } from './routes/notes.routes';
import { PEOPLE_ROUTES } from './routes/people.routes';
import { SEARCH_ROUTES } from './routes/searches.routes';
import type { RouteDeclaration } from './routes/route-spec';
import { USER_ROUTES } from './routes/users.routes';

/** What one part of the v3 surface brings: its field tables (each with its fragment) and its routes. */
export interface FacadeModule {
  readonly name: string;
  readonly resources: readonly V3Resource[];
  readonly routes: readonly RouteDeclaration[];
}

/**
 * The facade's composition root: every v3 resource and route, once. It imports nothing of the
 * core but the v3 vocabulary the core shares with it for saved searches (src/kit/v3/, the list
 * condition tables `src/modules/<thing>/<thing>.conditions.ts`: data and pure parsers, no entity,
 * service or ORM); the core's own root is src/modules/index.ts. Adding a resource is one line here.
 */
export const FACADE_MODULES: readonly FacadeModule[] = [
  { name: 'companies', resources: [companyResource], routes: COMPANY_ROUTES },
  { name: 'people', resources: [personResource], routes: PEOPLE_ROUTES },
  { name: 'deals', resources: [dealResource], routes: DEAL_ROUTES },
  { name: 'notes and comments', resources: [noteResource, commentResource], routes: NOTE_ROUTES },
  { name: 'documents', resources: [documentResource], routes: DOCUMENT_ROUTES },
  { name: 'calendar entries', resources: [calendarEntryResource, calendarFeedResource], routes: CALENDAR_ENTRY_ROUTES },
  {
    name: 'admin lists',
    resources: [
      leadStatusResource,
      leadSourceResource,
      predefinedContactsTagResource,
      noteCategoryResource,
      dealLossReasonResource,
      dealWonReasonResource,
      eventCategoryResource,
      documentTagResource,
      calendarEntryPriorityResource,
      dealStageResource,
      todoTemplateResource,
      todoTemplateItemResource,
    ],
    routes: ADMIN_ROUTES,
  },
  { name: 'users and account', resources: [userResource, accountResource], routes: USER_ROUTES },
  { name: 'custom fields', resources: CUSTOM_FIELD_RESOURCES, routes: CUSTOM_FIELD_ROUTES },
  { name: 'saved searches', resources: [savedSearchResource], routes: SEARCH_ROUTES },
  { name: 'conversations', resources: [conversationCreatedResource, conversationResource], routes: CONVERSATION_ROUTES },
  { name: 'account notifications', resources: [accountNotificationResource, accountNotificationUpdateResource], routes: ACCOUNT_NOTIFICATION_ROUTES },
  { name: 'changes', resources: [changeResource], routes: CHANGE_ROUTES },
  { name: 'webhooks', resources: [webhookResource], routes: WEBHOOK_ROUTES },
];
