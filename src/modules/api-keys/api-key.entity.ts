import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

/**
 * A scoped API key (issue 26 §3): a named key of a user that acts as the user with at most its
 * scopes, until it expires or is revoked. Only the SHA-256 of its secret is kept; the secret is
 * shown once, when the key is created.
 */
@Entity({ tableName: 'api_keys' })
@Index({ name: 'api_keys_user_id_index', properties: ['user'] })
@ObjectType('ApiKey', {
  simpleResolvers: true,
  description: 'A named API key of a user, acting as them with at most its scopes. Its secret is shown only once, by createApiKey.',
})
export class ApiKey {
  [OptionalProps]?: 'createdAt' | 'expiresAt' | 'lastUsedAt' | 'revokedAt' | 'databaseId' | 'userId' | 'secret';

  @PrimaryKey({ type: 'integer' }) id!: number;

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' }) account!: Account;

  @ManyToOne(() => User, { deleteRule: 'cascade' }) user!: User;

  @Field(() => Int, { description: 'The user the key acts as.' })
  get userId(): number {
    return this.user.id;
  }

  @Field({ description: 'What the key is for, at most 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 64, unique: true, lazy: true, hidden: true })
  keyHash!: string;

  @Field({ description: 'The start of the secret (`crm_sk_` and 8 characters), to tell keys apart; not enough to use it.' })
  @Property({ type: 'string', length: 20 })
  prefix!: string;

  @Field(() => [String], { description: 'What the key may do (`deals:read`, `deals:write`, ..., `admin`); a write scope lets it read too.' })
  @Property({ type: 'json' })
  scopes!: string[];

  @Field(() => Date, { nullable: true, description: 'When the key stops working; null: never.' })
  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Field(() => Date, { nullable: true, description: 'When the key was last used (kept to the minute); null: never.' })
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  @Field(() => Date, { nullable: true, description: 'When the key was revoked; null while it is not.' })
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @Field({ description: 'When the key was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Set on the instance createApiKey returns, for its payload only. */
  revealedSecret?: string;

  @Field(() => String, {
    nullable: true,
    description: 'The secret (`crm_sk_…`): only in the payload of createApiKey, null anywhere else. Keep it: it is not shown again.',
  })
  get secret(): string | null {
    return this.revealedSecret ?? null;
  }
}
