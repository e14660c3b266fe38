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
  require_preconditions: boolean;
  key_id?: number;
  scopes?: string[];
  last_used_at?: Date | string | null;
}

/**
 * How the user is found: by id (a job acting for a user), by the digest of their API key (a
 * request), or by the digest of one of their scoped keys (src/modules/api-keys: only while it is
 * neither revoked nor expired).
 */
export type ViewerLookup = { readonly userId: number } | { readonly apiKeyHash: string } | { readonly scopedKeyHash: string };

/** A scoped key's viewer, and when it was last used (its caller keeps that to the minute). */
export interface ScopedViewer {
  readonly viewer: Viewer;
  readonly lastUsedAt: Date | null;
}

/**
 * The viewer of one user, from one indexed lookup, for requests (by key digest) and for work that
 * starts without a request (a job acting for the user who caused it:
 * `createContext(orm, await viewerFor(em, { userId }), jobId)`). Null when there is no such user.
 */
export async function viewerFor(em: Pick<EntityManager, 'getConnection'>, lookup: ViewerLookup, appId: number | null = null): Promise<Viewer | null> {
  return (await lookUp(em, lookup, appId))?.viewer ?? null;
}

/** The viewer of a scoped key (scopes and key id set), or null when no usable key has this digest. */
export function viewerForScopedKey(em: Pick<EntityManager, 'getConnection'>, scopedKeyHash: string, appId: number | null = null): Promise<ScopedViewer | null> {
  return lookUp(em, { scopedKeyHash }, appId);
}

const VIEWER_COLUMNS = `u.id, u.account_id, u.is_admin, u.visibility, coalesce(u.time_zone, a.time_zone) as time_zone, a.time_zone as account_time_zone, a.currency_code, a.require_preconditions`;

async function lookUp(em: Pick<EntityManager, 'getConnection'>, lookup: ViewerLookup, appId: number | null): Promise<ScopedViewer | null> {
  const sql =
    'scopedKeyHash' in lookup
      ? // The key's user in the key's account: a deleted user takes their keys along (cascade).
        `select ${VIEWER_COLUMNS}, k.id as key_id, k.scopes, k.last_used_at
           from "api_keys" k join "users" u on u.id = k.user_id and u.account_id = k.account_id join "accounts" a on a.id = u.account_id
          where k.key_hash = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`
      : `select ${VIEWER_COLUMNS} from "users" u join "accounts" a on a.id = u.account_id where ${'userId' in lookup ? 'u.id' : 'u.api_key_hash'} = ?`;
  const value = 'scopedKeyHash' in lookup ? lookup.scopedKeyHash : 'userId' in lookup ? lookup.userId : lookup.apiKeyHash;
  const rows = await em.getConnection().execute<ViewerRow[]>(sql, [value], 'all');
  if (rows.length === 0) return null;
  const row = rows[0];
  const scoped = row.key_id !== undefined && row.key_id !== null;
  const viewer: Viewer = {
    userId: row.id,
    accountId: row.account_id,
    isAdmin: row.is_admin,
    visibility: row.visibility,
    timeZone: row.time_zone,
    accountTimeZone: row.account_time_zone,
    currency: currencyOf(row.currency_code),
    requirePreconditions: row.require_preconditions,
    appId,
    scopes: scoped ? (row.scopes ?? []) : null,
    apiKeyId: scoped ? row.key_id! : null,
  };
  return { viewer, lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null };
}

/** The viewer of a user by id (see viewerFor). */
export function viewerForUser(em: EntityManager, userId: number): Promise<Viewer | null> {
  return viewerFor(em, { userId });
}
