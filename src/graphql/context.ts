import type { EntityManager } from '@mikro-orm/postgresql';
import type { CurrencyInfo } from '../modules/accounts/currency';
import type { Visibility } from '../modules/users/user.entity';
import type { Loaders } from './loaders';

/** Who is asking. Built once per request from the API key; never carries the key itself. */
export interface Viewer {
  readonly userId: number;
  readonly accountId: number;
  readonly isAdmin: boolean;
  readonly visibility: Visibility;
  /** The user's IANA zone, or the account's when the user has none. */
  readonly timeZone: string;
  /** The account's zone: users without a zone of their own are in it. */
  readonly accountTimeZone: string;
  readonly currency: CurrencyInfo;
  /** Set when a registered application's app_key came with the request (higher rate tier). */
  readonly appId: number | null;
}

export interface RateState {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds at which the bucket is full again. */
  readonly reset: number;
  readonly retryAfter?: number;
}

/** One unit of work per request or job: a forked EntityManager, fresh loaders, the viewer. */
export interface RequestContext {
  readonly em: EntityManager;
  readonly viewer: Viewer;
  readonly loaders: Loaders;
  readonly requestId: string;
  /** Filled by the rate limiter when the operation is charged. */
  rate: RateState | null;
  /** Set once the operation has been charged, so a multi-field operation costs one unit. */
  rateCharge: Promise<void> | null;
}
