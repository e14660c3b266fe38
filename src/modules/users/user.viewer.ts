import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer, Visibility } from '../../context/viewer';
import { currencyOf } from '../accounts/currency';

interface ViewerRow {
  id: number;
  account_id: number;
  is_admin: boolean;
  visibility: Visibility;
  time_zone: string;
  account_time_zone: string;
  currency_code: string;
}

/** How the user is found: by id (a job acting for a user) or by the digest of their API key (a request). */
export type ViewerLookup = { readonly userId: number } | { readonly apiKeyHash: string };

/**
 * The viewer of one user, from one indexed lookup, for requests (by key digest) and for work that
 * starts without a request (a job acting for the user who caused it:
 * `createContext(orm, await viewerFor(em, { userId }), jobId)`). Null when there is no such user.
 */
export async function viewerFor(em: Pick<EntityManager, 'getConnection'>, lookup: ViewerLookup, appId: number | null = null): Promise<Viewer | null> {
  const [column, value] = 'userId' in lookup ? ['u.id', lookup.userId] : ['u.api_key_hash', lookup.apiKeyHash];
  const rows = await em.getConnection().execute<ViewerRow[]>(
    `select u.id, u.account_id, u.is_admin, u.visibility, coalesce(u.time_zone, a.time_zone) as time_zone, a.time_zone as account_time_zone, a.currency_code
       from "users" u join "accounts" a on a.id = u.account_id where ${column} = ?`,
    [value],
    'all',
  );
  if (rows.length === 0) return null;
  const row = rows[0];
  return {
    userId: row.id,
    accountId: row.account_id,
    isAdmin: row.is_admin,
    visibility: row.visibility,
    timeZone: row.time_zone,
    accountTimeZone: row.account_time_zone,
    currency: currencyOf(row.currency_code),
    appId,
  };
}

/** The viewer of a user by id (see viewerFor). */
export function viewerForUser(em: EntityManager, userId: number): Promise<Viewer | null> {
  return viewerFor(em, { userId });
}
