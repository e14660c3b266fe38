import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Issues, NotFoundError } from '../../common/errors';
import { hashKey } from '../../common/keys';
import { instantProblem } from '../../common/dates';
import { grants, knownScopes, SCOPE_ADMIN } from '../../graphql/scopes';
import { ApiKey } from './api-key.entity';

/** What a scoped key's secret starts with, so that secret scanners (and people) recognise it. */
export const SCOPED_KEY_PREFIX = 'crm_sk_';
export const API_KEY_NAME_MAX = 100;
/** Most scopes one key holds (there are fewer distinct ones; duplicates count). */
export const API_KEY_SCOPES_MAX = 64;
/** Most keys a user holds that are not revoked. */
export const API_KEYS_PER_USER_MAX = 100;
/** The display prefix: `crm_sk_` and 8 characters of the secret (48 bits of its 256: not enough to use it). */
const DISPLAY_LENGTH = SCOPED_KEY_PREFIX.length + 8;

/** A new secret: the prefix and 32 random bytes in base64url (50 characters), its SHA-256 and display prefix. */
export function issueScopedKey(): { secret: string; hash: string; prefix: string } {
  const secret = `${SCOPED_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { secret, hash: hashKey(secret), prefix: secret.slice(0, DISPLAY_LENGTH) };
}

/** Whether a presented key is a scoped key's secret (looked up in api_keys, not users). */
export const isScopedKey = (key: string): boolean => key.startsWith(SCOPED_KEY_PREFIX);

/** Who makes a key: the user it acts as, and the scopes of the key making it (null: a full key). */
export interface KeyMaker {
  readonly accountId: number;
  readonly userId: number;
  readonly isAdmin: boolean;
  readonly scopes: readonly string[] | null;
}

export interface ApiKeyInput {
  readonly name?: string | null;
  readonly scopes?: readonly string[] | null;
  readonly expiresAt?: Date | null;
}

/**
 * The scopes asked for, checked: each a known scope (the message names the unknown one), `admin`
 * only for an administrator, none the making key lacks (a key cannot mint itself more rights).
 */
export function checkScopeList(raw: readonly string[] | null | undefined, maker: KeyMaker, issues: Issues): string[] {
  if (!raw || raw.length === 0) {
    issues.blank('scopes');
    return [];
  }
  if (raw.length > API_KEY_SCOPES_MAX) {
    issues.invalid('scopes', `takes at most ${API_KEY_SCOPES_MAX} scopes`);
    return [];
  }
  const known = new Set(knownScopes());
  const scopes = [...new Set(raw.map((s) => s.trim()))].sort();
  const unknown = scopes.filter((s) => !known.has(s));
  if (unknown.length > 0) {
    const shown = unknown.map((s) => JSON.stringify(s.slice(0, 64))).join(', ');
    issues.invalid('scopes', `has unknown scope${unknown.length > 1 ? 's' : ''} ${shown} (known: ${[...known].join(', ')})`);
    return [];
  }
  if (scopes.includes(SCOPE_ADMIN) && !maker.isAdmin) issues.invalid('scopes', 'admin is for administrators only');
  const beyond = scopes.filter((s) => !grants(maker.scopes, s));
  if (beyond.length > 0) issues.invalid('scopes', `cannot give ${beyond.join(', ')}: the key making it lacks ${beyond.length > 1 ? 'them' : 'it'}`);
  return scopes;
}

/** Makes a key for `maker`'s user inside the caller's transaction; the secret is on `revealedSecret`, once. */
export async function createApiKey(em: EntityManager, maker: KeyMaker, input: ApiKeyInput, now: Date): Promise<ApiKey> {
  const issues = new Issues();
  const name = (input.name ?? '').replace(/\0/g, '').trim();
  if (name === '') issues.blank('name');
  else if (name.length > API_KEY_NAME_MAX) issues.tooLong('name', API_KEY_NAME_MAX);
  const scopes = checkScopeList(input.scopes, maker, issues);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null) {
    if (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime()) || instantProblem(expiresAt) !== null) issues.outOfRange('expiresAt');
    else if (expiresAt.getTime() <= now.getTime()) issues.invalid('expiresAt', 'must be in the future');
  }
  issues.throwIfAny();
  const [{ count }] = await em.execute<Array<{ count: number }>>(
    `select count(*)::int as count from "api_keys" where "user_id" = ? and "revoked_at" is null`,
    [maker.userId],
    'all',
  );
  if (count >= API_KEYS_PER_USER_MAX) new Issues().invalid('base', `a user holds at most ${API_KEYS_PER_USER_MAX} keys: revoke one first`).throwIfAny();
  const { secret, hash, prefix } = issueScopedKey();
  const key = em.create(ApiKey, { account: maker.accountId, user: maker.userId, name, keyHash: hash, prefix, scopes, expiresAt, createdAt: now });
  await em.flush();
  key.revealedSecret = secret;
  return key;
}

/** The keys `userId` holds, or with `account` every key of the account; newest first, at most `first`. */
export function listApiKeys(em: EntityManager, accountId: number, userId: number | null, first: number): Promise<ApiKey[]> {
  return em.find(ApiKey, { account: accountId, ...(userId === null ? {} : { user: userId }) }, { orderBy: { id: 'DESC' }, limit: first });
}

/** Revokes a key of the account (of `userId` unless null: an administrator); NOT_FOUND for any other. Revoking twice changes nothing. */
export async function revokeApiKey(em: EntityManager, accountId: number, userId: number | null, id: number, now: Date): Promise<ApiKey> {
  const key = Number.isSafeInteger(id) && id > 0 ? await em.findOne(ApiKey, { id, account: accountId, ...(userId === null ? {} : { user: userId }) }) : null;
  if (!key) throw new NotFoundError('ApiKey', id);
  key.revokedAt ??= now;
  await em.flush();
  return key;
}
