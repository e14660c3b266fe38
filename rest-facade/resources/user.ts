import type { ResourceSpec } from './resource-spec';

/**
 * v3 §4.11 users and profile (shape "not shown" by the spec): the convenience-object names plus
 * the user's own settings. Never a key: the core's User type has none, and this whitelist adds none.
 */
export const userResource: ResourceSpec = {
  root: 'user',
  writable: {},
  serialize: (u, fmt) => ({
    id: u.id,
    first_name: u.firstName ?? null,
    last_name: u.lastName ?? null,
    full_name: u.fullName ?? null,
    email: u.email,
    time_zone: u.timeZone,
    is_admin: u.isAdmin,
    // GraphQL speaks the enum's names (ALL, OWN); v3 speaks lower case.
    visibility: typeof u.visibility === 'string' ? u.visibility.toLowerCase() : null,
    created_at: fmt.dateTime(u.createdAt),
    updated_at: fmt.dateTime(u.updatedAt),
  }),
};
