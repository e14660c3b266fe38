import { Property } from '@mikro-orm/core';
import { Field, Int, InterfaceType } from 'type-graphql';

export const VERSION_DOC =
  "The record's version: one more with every change of a field the change feed shows (its people and collaborators for a deal), whoever made it. Give it as `expectedVersion` to an update or delete to have it refused (STALE) when the record changed since you read it. v3 clients use the ETag and If-Match instead.";

/**
 * Records whose writes can be conditional (issue 26 §2): GraphQL's counterpart of the strong ETag
 * of their v3 show. The version is kept by the database (migration 20261206000001), not by the ORM.
 */
@InterfaceType('Versioned', { description: 'A record with a version, for conditional updates and deletes (`expectedVersion`).' })
export abstract class Versioned {
  @Field(() => Int, { description: VERSION_DOC })
  version!: number;
}

export const EXPECTED_VERSION_DOC =
  "The record's `version` as you read it: the write is refused with a STALE user error when the record changed since. Required when the account requires preconditions (Account.requirePreconditions).";

/** The entity classes with a VersionColumn: their update and delete mutations take `expectedVersion`. */
const versionedEntities = new WeakSet<object>();

export function isVersioned(entity: object): boolean {
  return versionedEntities.has(entity);
}

/**
 * The `version` of a versioned record: its `lock_version` column, read with the row and never
 * written by the ORM (untracked), since the database's trigger moves it; after a flush the
 * unit of work's subscriber (src/db/record-versions.ts) reads the new value back.
 */
export function VersionColumn(): PropertyDecorator {
  return (target, key) => {
    versionedEntities.add(target.constructor);
    Field(() => Int, { description: VERSION_DOC })(target, key);
    Property({ type: 'integer', fieldName: 'lock_version', default: 1, trackChanges: false })(target, key as string);
  };
}
