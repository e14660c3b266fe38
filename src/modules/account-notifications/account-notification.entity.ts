import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

/**
 * A notification for one user of the account (v3 §2.9): a text, read (`readAt`) or not, seen or
 * not, with a popup unless `hidePopup`. Its user reads and marks it; the account's admins too.
 * A user's notifications go with the user, an account's with the account.
 */
@Entity({ tableName: 'account_notifications' })
@Index({ name: 'account_notifications_account_user_created', properties: ['account', 'user', 'createdAt'] })
@Index({ name: 'account_notifications_account_created', properties: ['account', 'createdAt'] })
@ObjectType('AccountNotification', {
  implements: [Node, Versioned],
  simpleResolvers: true,
  description:
    'A notification for one user of the account (v3 "account notification"): a text, read or not, seen or not. Its user and the account\'s administrators see it.',
})
export class AccountNotification {
  [OptionalProps]?: 'version' | 'readAt' | 'seen' | 'hidePopup' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId' | 'userId' | 'accountId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('AccountNotification', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** The user notified (v3 `user_id`); their notifications go with them. */
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'What the notification says (required; at most 5,000 characters).' })
  @Property({ type: 'text' })
  text!: string;

  @Field(() => Date, { nullable: true, description: 'When its user read it; null while unread.' })
  @Property({ type: 'datetime', nullable: true })
  readAt: Date | null = null;

  @Field({ description: 'Whether its user has seen it: true once read and false once marked unread, unless said otherwise.' })
  @Property({ type: 'boolean' })
  seen: boolean = false;

  @Field({ description: 'Whether the notification shows no popup when it is created (set on create only).' })
  @Property({ type: 'boolean' })
  hidePopup: boolean = false;

  @Field({ description: 'When the notification was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the notification was last changed (read, marked unread, seen).' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => Int, { description: 'databaseId of the user notified.' })
  @Extensions({ [READS]: ['user'] })
  get userId(): number {
    return this.user.id;
  }

  @Field(() => Int, { description: "databaseId of the account (the viewer's)." })
  @Extensions({ [READS]: ['account'] })
  get accountId(): number {
    return this.account.id;
  }
}
