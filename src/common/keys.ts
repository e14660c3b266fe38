import { createHash, randomBytes } from 'node:crypto';

/**
 * API and app keys: 32 random bytes. Only a SHA-256 digest is stored; a fast digest is right here
 * because the keys carry 256 bits of entropy (no dictionary to guard against), and it keeps
 * per-request authentication a single indexed lookup.
 */
export function issueKey(): { key: string; hash: string } {
  const key = randomBytes(32).toString('hex');
  return { key, hash: hashKey(key) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Cheap shape check before touching the database: keys are 64 hex chars (legacy keys up to 128 printable). */
export function plausibleKey(key: unknown): key is string {
  return typeof key === 'string' && key.length >= 16 && key.length <= 128 && /^[\x21-\x7e]+$/.test(key);
}
