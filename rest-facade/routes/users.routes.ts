import { accountResource } from '../resources/account';
import { userResource } from '../resources/user';
import type { RouteSpec } from './route-spec';

const base = { method: 'GET', errorShape: 'array' } as const;

/** v3 §4.11 users and profile; DECISIONS: GET /account.json (the official Ruby client calls it). */
export const USER_ROUTES: readonly RouteSpec[] = [
  // DECISIONS (Paging): every list not named defaults to 100, at most 100.
  { ...base, path: '/users', op: 'ListUsers', kind: 'list', result: 'users', resource: userResource, paging: { default: 100, max: 100 } },
  { ...base, path: '/users/:id', op: 'ShowUser', kind: 'show', result: 'user', resource: userResource },
  { ...base, path: '/profile', op: 'ShowProfile', kind: 'singleton', result: 'viewer', resource: userResource },
  { ...base, path: '/account', op: 'ShowAccount', kind: 'singleton', result: 'account', resource: accountResource },
];
