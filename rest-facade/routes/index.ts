import { COMPANY_ROUTES } from './companies.routes';
import { PEOPLE_ROUTES } from './people.routes';
import { ADMIN_ROUTES } from './admin.routes';
import { USER_ROUTES } from './users.routes';
import type { RouteSpec } from './route-spec';

/** THE ROUTE TABLE: one entry per v3 route. */
export const V3_ROUTES: readonly RouteSpec[] = [...COMPANY_ROUTES, ...PEOPLE_ROUTES, ...ADMIN_ROUTES, ...USER_ROUTES];
