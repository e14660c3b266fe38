/**
 * What a user may see: `all` every record of the account, `own` the records they own (and, once
 * deals exist, deals shared with them). Defined here, not with the User entity, so the context
 * (and the visibility rule) depend on no module; the users module registers it with GraphQL.
 */
export enum Visibility {
  ALL = 'all',
  OWN = 'own',
}

/** Currencies an account may use; `decimals` drives how money is formatted (v3 deal `value`). */
export interface CurrencyInfo {
  readonly code: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

/** Who is asking. Built once per request from the API key (or by a job); never carries the key itself. */
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
  /** The account requires updates and deletes of versioned records to name the version they change (Account.requirePreconditions). */
  readonly requirePreconditions: boolean;
  /** Set when a registered application's app_key came with the request (higher rate tier). */
  readonly appId: number | null;
  /**
   * The scopes of the scoped API key the request came with (src/graphql/scopes.ts), or null for
   * a full key (the user's own api_key, a job): null may do whatever the user may.
   */
  readonly scopes: readonly string[] | null;
  /** The scoped API key's id (null for a full key): a webhook endpoint it makes keeps its scopes. */
  readonly apiKeyId: number | null;
}
