import { accountResource } from './resources/account';
import { companyResource } from './resources/company';
import { dealResource } from './resources/deal';
import { dealStageResource } from './resources/deal-stage';
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
import { todoTemplateItemResource, todoTemplateResource } from './resources/todo-template';
import type { ResourceSpec } from './resources/resource-spec';
import { userResource } from './resources/user';
import { ADMIN_ROUTES } from './routes/admin.routes';
import { COMPANY_ROUTES } from './routes/companies.routes';
import { DEAL_ROUTES } from './routes/deals.routes';
import { PEOPLE_ROUTES } from './routes/people.routes';
import type { RouteSpec } from './routes/route-spec';
import { USER_ROUTES } from './routes/users.routes';

/** What one part of the v3 surface brings: its field tables (each with its fragment) and its routes. */
export interface FacadeModule {
  readonly name: string;
  readonly resources: readonly ResourceSpec[];
  readonly routes: readonly RouteSpec[];
}

/**
 * The facade's composition root: every v3 resource and route, once. It imports nothing of the
 * core (the core's own root is src/modules/index.ts); adding a resource is one line here.
 */
export const FACADE_MODULES: readonly FacadeModule[] = [
  { name: 'companies', resources: [companyResource], routes: COMPANY_ROUTES },
  { name: 'people', resources: [personResource], routes: PEOPLE_ROUTES },
  { name: 'deals', resources: [dealResource], routes: DEAL_ROUTES },
  {
    name: 'admin lists',
    resources: [
      leadStatusResource, leadSourceResource, predefinedContactsTagResource, noteCategoryResource, dealLossReasonResource, dealWonReasonResource,
      eventCategoryResource, documentTagResource, calendarEntryPriorityResource, dealStageResource, todoTemplateResource, todoTemplateItemResource,
    ],
    routes: ADMIN_ROUTES,
  },
  { name: 'users and account', resources: [userResource, accountResource], routes: USER_ROUTES },
];
