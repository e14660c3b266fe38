import { accountResource } from '../resources/account';
import { userResource } from '../resources/user';
import type { RouteDeclaration } from './route-spec';

const base = { method: 'GET', errorShape: 'array' } as const;

/** v3 §4.11 users and profile; DECISIONS: GET /account.json (the official Ruby client calls it). */
export const USER_ROUTES: readonly RouteDeclaration[] = [
  // DECISIONS (Paging): every list not named defaults to 100, at most 100.
  { ...base, path: '/users', kind: 'list', result: 'users', resource: userResource, paging: { default: 100, max: 100 } },
  { ...base, path: '/users/:id', kind: 'show', result: 'user', resource: userResource },
  { ...base, path: '/profile', kind: 'singleton', result: 'viewer', resource: userResource },
  { ...base, path: '/account', kind: 'singleton', result: 'account', resource: accountResource },
];
