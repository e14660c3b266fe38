import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import type { Issues } from '../common/errors';
import { withoutNul } from '../db/sql';

/**
 * Copies the whitelisted scalar fields present in `input` onto `target` (undefined = not sent,
 * null = clear). String lengths are checked against the column's length from the ORM metadata,
 * so a too-long value is a clear validation error instead of a database failure.
 */
export function assignFields<T extends object, I extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  target: T,
  input: I,
  keys: readonly (keyof I & keyof T & string)[],
  issues: Issues,
): void {
  const meta = em.getMetadata().get(entity as never);
  for (const key of keys) {
    const value = (input as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const prop = meta.properties[key as never] as { length?: number; nullable?: boolean; type?: string } | undefined;
    // PostgreSQL counts characters (code points), not UTF-16 units: an emoji is one.
    if (typeof value === 'string' && prop?.length && value.length > prop.length && [...value].length > prop.length) {
      issues.tooLong(key, prop.length);
      continue;
    }
    if (value === null && prop && prop.nullable === false) {
      issues.blank(key);
      continue;
    }
    (target as Record<string, unknown>)[key] = typeof value === 'string' ? withoutNul(value) : value;
  }
}

export function blank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}
