import { v3Routes } from '../../rest-facade';
import { createSchema } from '../../src/app/schema';

/**
 * Every v3 route the server serves: the route table's (V3_ROUTES) and those of the admin lists
 * derived from the schema at boot (rest-facade/routes/derived-admin-lists.ts). Tests driven by
 * the route table enumerate these, so a list declared in the core is checked like the others.
 */
export const SERVED_ROUTES = v3Routes(createSchema());
