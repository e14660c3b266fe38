import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Account } from '../accounts/account.entity';
import { Visibility } from '../../context/viewer';

export { Visibility };
registerEnumType(Visibility, {
  name: 'Visibility',
  description: 'all: sees every record of the account; own: records they own and deals shared with them',
});

/** A person who signs in. Never exposes its API key: only its hash is stored. */
@Entity({ tableName: 'users' })
@Index({ properties: ['account'] })
@ObjectType('User', { simpleResolvers: true })
export class User {
  [OptionalProps]?: 'firstName' | 'lastName' | 'timeZone' | 'isAdmin' | 'visibility' | 'createdAt' | 'updatedAt' | 'fullName';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field()
  @Property({ type: 'string', length: 254 })
  email!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 100, nullable: true })
  firstName: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 100, nullable: true })
  lastName: string | null = null;

  /** Null: the account's zone applies. */
  @Property({ type: 'string', length: 64, nullable: true })
  timeZone: string | null = null;

  @Field()
  @Property({ type: 'boolean' })
  isAdmin: boolean = false;

  @Field(() => Visibility)
  @Enum({ items: () => Visibility })
  visibility: Visibility = Visibility.ALL;

  /** sha256 of the key; the key itself is shown once, when issued. */
  @Property({ type: 'string', length: 64, unique: true, lazy: true, hidden: true })
  apiKeyHash!: string;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Field()
  get fullName(): string {
    return [this.firstName, this.lastName].filter(Boolean).join(' ');
  }
}
