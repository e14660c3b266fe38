import type { CurrencyInfo } from '../modules/accounts/currency';
import type { Visibility } from '../modules/users/user.entity';

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
