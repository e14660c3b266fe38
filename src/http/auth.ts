import type { Request } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { UnauthenticatedError } from '../common/errors';
import { hashKey, plausibleKey } from '../common/keys';
import { currencyOf } from '../modules/accounts/currency';
import type { Visibility } from '../modules/users/user.entity';
import type { Viewer } from '../context/viewer';

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** The key may come as `api_key` (the v3 contract), `Authorization: Bearer`, or `X-Api-Key`. */
export function credentialsOf(req: Request): { apiKey?: string; appKey?: string } {
  // The query string alone: `new URL('//x/..', base)` would read a doubled-slash path as a host.
  const raw = req.originalUrl ?? req.url;
  const start = raw.indexOf('?');
  const end = raw.indexOf('#', start);
  const query = new URLSearchParams(start < 0 ? '' : raw.slice(start + 1, end < 0 ? undefined : end));
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
  // An empty `api_key=` (a client's unset variable) is no key: the headers may still carry one.
  const given = (value: string | null | undefined) => (value === null || value === undefined || value === '' ? undefined : value);
  return {
    apiKey: given(query.get('api_key')) ?? given(bearer) ?? given(firstString(req.get('x-api-key'))),
    appKey: given(query.get('app_key')) ?? given(firstString(req.get('x-app-key'))),
  };
}

interface ViewerRow {
  id: number;
  account_id: number;
  is_admin: boolean;
  visibility: Visibility;
  time_zone: string;
  account_time_zone: string;
  currency_code: string;
}

/** One indexed lookup by key hash (plus one for an app key). Throws UnauthenticatedError. */
export async function authenticate(orm: MikroORM, req: Request): Promise<Viewer> {
  const { apiKey, appKey } = credentialsOf(req);
  if (!plausibleKey(apiKey)) throw new UnauthenticatedError('Unknown api_key');
  const connection = orm.em.getConnection();
  const rows = await connection.execute<ViewerRow[]>(
    `select u.id, u.account_id, u.is_admin, u.visibility, coalesce(u.time_zone, a.time_zone) as time_zone, a.time_zone as account_time_zone, a.currency_code
       from "users" u join "accounts" a on a.id = u.account_id where u.api_key_hash = ?`,
    [hashKey(apiKey)],
    'all',
  );
  if (rows.length === 0) throw new UnauthenticatedError('Unknown api_key');
  let appId: number | null = null;
  if (appKey !== undefined) {
    const apps = plausibleKey(appKey) ? await connection.execute<Array<{ id: number }>>('select id from "api_apps" where key_hash = ?', [hashKey(appKey)], 'all') : [];
    if (apps.length === 0) throw new UnauthenticatedError('Unknown app_key');
    appId = apps[0].id;
  }
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
