import type { ResourceSpec } from './resource-spec';

/** DECISIONS (Routes clients use that the spec does not list): GET /account.json, no secret in it. */
export const accountResource: ResourceSpec = {
  root: 'account',
  writable: {},
  serialize: (a) => ({
    id: a.id,
    name: a.name,
    currency: a.currency ? { code: a.currency.code, name: a.currency.name, symbol: a.currency.symbol } : null,
    time_zone: a.timeZone,
  }),
};
