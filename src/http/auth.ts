import type { Request } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { RateLimitedError, UnauthenticatedError } from '../common/errors';
import { hashKey, plausibleKey } from '../common/keys';
import { logger } from '../common/logger';
import { rateLimitRefusals } from '../common/metrics';
import type { RateLimitTier } from '../config/config';
import type { BucketBackend } from '../graphql/rate-limit';
import { isScopedKey } from '../modules/api-keys/api-key.service';
import { viewerFor, viewerForScopedKey } from '../modules/users/user.viewer';
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
  constructor(
    private readonly backend: BucketBackend,
    private readonly tier: RateLimitTier,
  ) {}

  /** Charges one failure to `req`'s address: the 401 to answer while its bucket lasts, then a 429. */
  async charge(req: Request, failure: UnauthenticatedError): Promise<UnauthenticatedError | RateLimitedError> {
    try {
      const { allowed, tokens } = await this.backend.take(`authfail:${clientBucketOf(req.socket.remoteAddress)}`, this.tier);
      if (allowed) return failure;
      rateLimitRefusals.inc({ limit: 'auth_failures' });
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

/** How stale a scoped key's last-used time may get: it is written at most once a minute per key, not on every request. */
const LAST_USED_GRAIN_MS = 60_000;

async function scopedViewer(em: MikroORM['em'], key: string): Promise<Viewer | null> {
  const found = await viewerForScopedKey(em, hashKey(key));
  if (!found) return null;
  if (found.lastUsedAt === null || Date.now() - found.lastUsedAt.getTime() >= LAST_USED_GRAIN_MS) {
    // Conditional, so that concurrent requests of one key write it once.
    await em
      .getConnection()
      .execute(
        `update "api_keys" set "last_used_at" = now() where "id" = ? and ("last_used_at" is null or "last_used_at" <= now() - interval '1 minute')`,
        [found.viewer.apiKeyId],
        'run',
      );
  }
  return found.viewer;
}

async function lookUpViewer(orm: MikroORM, req: Request): Promise<Viewer> {
  const { apiKey, appKey } = credentialsOf(req);
  if (!plausibleKey(apiKey)) throw new UnauthenticatedError('Unknown api_key');
  // The app key is checked only once the user key is known: an unknown api_key answers as such.
  // Raw statements only: the global EntityManager's connection, no unit of work to fork.
  const em = orm.em;
  // A scoped key (its prefix says so) is looked up among the scoped keys, a user's own key among the users.
  const viewer = isScopedKey(apiKey) ? await scopedViewer(em, apiKey) : await viewerFor(em, { apiKeyHash: hashKey(apiKey) });
  // Unknown, revoked and expired keys answer alike.
  if (!viewer) throw new UnauthenticatedError('Unknown api_key');
  if (appKey === undefined) return viewer;
  const apps = plausibleKey(appKey)
    ? await em.getConnection().execute<Array<{ id: number }>>('select id from "api_apps" where key_hash = ?', [hashKey(appKey)], 'all')
    : [];
  if (apps.length === 0) throw new UnauthenticatedError('Unknown app_key');
  return { ...viewer, appId: apps[0].id };
}
