import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { Visibility } from '../../context/viewer';

export { Visibility };
registerEnumType(Visibility, {
  name: 'Visibility',
  description: 'Which records of the account a user may see.',
  valuesConfig: {
    ALL: { description: 'Every record of the account.' },
    OWN: { description: 'Only the records they own (and deals shared with them).' },
  },
});

/** A person who signs in. Never exposes its API key: only its hash is stored. */
@Entity({ tableName: 'users' })
@Index({ properties: ['account'] })
// Unique per account ignoring case: an expression index, declared with the migration's statement.
@Unique({ name: 'users_account_id_email_unique', expression: `create unique index "users_account_id_email_unique" on "users" ("account_id", lower("email"))` })
@ObjectType('User', { implements: Node, simpleResolvers: true, description: 'A person who signs in to the account (with an API key, never shown).' })
export class User {
  [OptionalProps]?:
    'firstName' | 'lastName' | 'timeZone' | 'isAdmin' | 'visibility' | 'createdAt' | 'updatedAt' | 'fullName' | 'nodeId' | 'databaseId' | 'accountId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('User', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field({ description: 'Sign-in email address, unique in the account (case-insensitive).' })
  @Property({ type: 'string', length: 254 })
  email!: string;

  @Field(() => String, { nullable: true, description: 'First name.' })
  @Property({ type: 'string', length: 100, nullable: true })
  firstName: string | null = null;

  @Field(() => String, { nullable: true, description: 'Last name.' })
  @Property({ type: 'string', length: 100, nullable: true })
  lastName: string | null = null;

  /** Null: the account's zone applies. */
  @Property({ type: 'string', length: 64, nullable: true })
  timeZone: string | null = null;

  @Field({ description: "Administrators manage the account's users and admin lists." })
  @Property({ type: 'boolean' })
  isAdmin: boolean = false;

  @Field(() => Visibility, { description: 'Which records the user may see.' })
  @Enum({ items: () => Visibility })
  visibility: Visibility = Visibility.ALL;

  /** sha256 of the key; the key itself is shown once, when issued. */
  @Property({ type: 'string', length: 64, unique: true, lazy: true, hidden: true })
  apiKeyHash!: string;

  @Field({ description: 'When the user was added.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the user was last changed.' })
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Field(() => Int, { description: "databaseId of the account the user belongs to (the viewer's)." })
  @Extensions({ [READS]: ['account'] })
  get accountId(): number {
    return this.account.id;
  }

  @Field({ description: 'First and last name, separated by a space.' })
  get fullName(): string {
    return this.firstName && this.lastName ? `${this.firstName} ${this.lastName}` : this.firstName || this.lastName || '';
  }
}
