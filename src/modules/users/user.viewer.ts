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

/**
 * The viewer of a user, for work that starts without a request (a job acting for the user who
 * caused it): `createContext(orm, await viewerForUser(em, userId), jobId)`. Null when the user is gone.
 */
export async function viewerForUser(em: EntityManager, userId: number): Promise<Viewer | null> {
  const rows = await em.execute<ViewerRow[]>(
    `select u.id, u.account_id, u.is_admin, u.visibility, coalesce(u.time_zone, a.time_zone) as time_zone, a.time_zone as account_time_zone, a.currency_code
       from "users" u join "accounts" a on a.id = u.account_id where u.id = ?`,
    [userId],
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
    appId: null,
  };
}
