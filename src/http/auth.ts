import type { Request } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { RateLimitedError, UnauthenticatedError } from '../common/errors';
import { hashKey, plausibleKey } from '../common/keys';
import { logger } from '../common/logger';
import type { RateLimitTier } from '../config/config';
import type { BucketBackend } from '../graphql/rate-limit';
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

/**
 * The bucket a client address is charged to: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its
 * /64, since one host usually holds a whole /64 and could otherwise draw a fresh bucket per address.
 */
export function clientBucketOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Failed authentications per client address (`req.socket.remoteAddress`: trust proxy is off), on
 * the request limiter's bucket backend under keys of their own, so processes sharing a Redis share
 * these buckets too. Only a failure that presented a key is charged: a valid key costs nothing here
 * and keeps working from an address whose failures ran out, and a request with no key at all
 * (a browser, a probe) proves nothing and costs no lookup.
 */
export class AuthFailureLimiter {
  constructor(private readonly backend: BucketBackend, private readonly tier: RateLimitTier) {}

  /** Charges one failure to `req`'s address: the 401 to answer while its bucket lasts, then a 429. */
  async charge(req: Request, failure: UnauthenticatedError): Promise<UnauthenticatedError | RateLimitedError> {
    try {
      const { allowed, tokens } = await this.backend.take(`authfail:${clientBucketOf(req.socket.remoteAddress)}`, this.tier);
      if (allowed) return failure;
      return new RateLimitedError(Math.max(1, Math.ceil((1 - tokens) / this.tier.perSecond)), 'Too many failed authentications from this address');
    } catch (error) {
      // The 401 is right whatever the limiter's store says; an unreachable Redis must not turn it into a 500.
      logger.warn('auth failure limiter unavailable', { error: String(error) });
      return failure;
    }
  }
}

/**
 * One indexed lookup by key hash (plus one for an app key). Throws UnauthenticatedError, or once
 * the address has failed too often (see AuthFailureLimiter) RateLimitedError.
 */
export async function authenticate(orm: MikroORM, req: Request, failures?: AuthFailureLimiter): Promise<Viewer> {
  try {
    return await lookUpViewer(orm, req);
  } catch (error) {
    if (!failures || !(error instanceof UnauthenticatedError)) throw error;
    const { apiKey, appKey } = credentialsOf(req);
    if (apiKey === undefined && appKey === undefined) throw error;
    throw await failures.charge(req, error);
  }
}

async function lookUpViewer(orm: MikroORM, req: Request): Promise<Viewer> {
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
