import { FACADE_MODULES } from '../modules';
import type { RouteSpec } from './route-spec';

/** THE ROUTE TABLE: one entry per v3 route, from the facade's modules (rest-facade/modules.ts). */
export const V3_ROUTES: readonly RouteSpec[] = FACADE_MODULES.flatMap((m) => m.routes);
