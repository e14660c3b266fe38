import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';
import type { MailKind } from './mail-intent';
import { OutboxStatus } from './outbox-status';

export { OutboxStatus };
registerEnumType(OutboxStatus, {
  name: 'OutboxStatus',
  description: 'Where an outbox message stands in its delivery.',
  valuesConfig: {
    PENDING: { description: 'Not delivered yet: waiting for a delivery, being delivered, or waiting to be tried again after a failure.' },
    SENT: { description: 'Accepted by the mail server (sentAt says when); never sent again.' },
    FAILED: {
      description:
        'Given up on (lastError says why): after its last attempt, or at once when it can never be sent (its recipient may no longer see the record it is about, or the row cannot be rendered); never sent.',
    },
  },
});

/**
 * The kinds of mail as GraphQL enum values (stored values on the right). Keyed by every MailKind,
 * so a new kind of intent does not compile until it is named here.
 */
export const OutboxMessageKind: { readonly [K in MailKind as Uppercase<K>]: K } = {
  PERSON_ASSIGNMENT: 'person_assignment',
  PERSON_REASSIGNMENT: 'person_reassignment',
  COMPANY_REASSIGNMENT: 'company_reassignment',
  NOTE_COMMENT: 'note_comment',
  WEBHOOK_DISABLED: 'webhook_disabled',
};
registerEnumType(OutboxMessageKind, {
  name: 'OutboxMessageKind',
  description: 'Why the service owes a mail.',
  valuesConfig: {
    PERSON_ASSIGNMENT: { description: 'A person was created with the recipient as owner, by someone else.' },
    PERSON_REASSIGNMENT: { description: 'A person was given to the recipient (their owner changed), by someone else.' },
    COMPANY_REASSIGNMENT: { description: 'A company was given to the recipient (its owner changed), by someone else.' },
    NOTE_COMMENT: { description: 'A comment was added to a note the recipient is notified about.' },
    WEBHOOK_DISABLED: {
      description:
        "A webhook endpoint the recipient owns was disabled (its URL answered 410 Gone, or its deliveries failed for 5 days); sent to the endpoint's failure email when it has one (toAddress).",
    },
  },
});

/**
 * A mail the service owes someone (assignment, reassignment, comment notification, a disabled
 * webhook endpoint). Written in the same transaction as the change that causes it; a job delivers
 * it (SMTP when configured) or it stays readable in the outbox. It always belongs to a user of the
 * account (`recipient`); `recipientAddress` sends it elsewhere (a webhook endpoint's failure email).
 */
@Entity({ tableName: 'outbox_messages' })
@Index({ properties: ['status', 'createdAt'] })
@Index({ properties: ['account', 'recipient'] })
@ObjectType('OutboxMessage', {
  implements: Node,
  simpleResolvers: true,
  description:
    "A mail the service owes a user of the account (an assignment, a reassignment, a comment on a note they follow, a webhook endpoint of theirs disabled), recorded with the change that caused it and delivered by the service when a mail server is configured: to the user's address, or to toAddress when set. Only administrators see it.",
})
export class OutboxMessage {
  [OptionalProps]?: 'recipientAddress' | 'payload' | 'status' | 'createdAt' | 'attempts' | 'nodeId' | 'databaseId' | 'toAddress';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('OutboxMessage', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  recipient!: User;

  /** Where the mail goes when not the recipient's own address (a webhook endpoint's failure_email); null: the recipient's. */
  @Property({ type: 'string', length: 254, nullable: true })
  recipientAddress: string | null = null;

  // A getter, not a renamed field: simple resolvers read the field's own name off the entity.
  @Field(() => String, {
    nullable: true,
    description: "Where the mail goes when not the recipient's own address (a webhook endpoint's failure email); null: the recipient's address.",
  })
  get toAddress(): string | null {
    return this.recipientAddress;
  }

  /** One of the MailIntent kinds (outbox.service.ts), e.g. person_assignment. */
  @Field(() => OutboxMessageKind, { description: 'Why the mail is owed.' })
  @Property({ type: 'string', length: 64 })
  kind!: MailKind;

  @Field({ description: 'The type of the record the mail is about: Person, Company, Note or WebhookEndpoint.' })
  @Property({ type: 'string', length: 32 })
  subjectType!: string;

  @Field(() => Int, { description: 'databaseId of the record the mail is about (it may have been deleted since).' })
  @Property({ type: 'integer' })
  subjectId!: number;

  @Property({ type: 'json', defaultRaw: `'{}'` })
  payload: Record<string, unknown> = {};

  @Field(() => OutboxStatus, { description: 'Where its delivery stands.' })
  @Enum({ items: () => OutboxStatus })
  status: OutboxStatus = OutboxStatus.PENDING;

  @Field({ description: 'When the change that owes the mail was made (ISO 8601, UTC).' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field(() => Date, { nullable: true, description: 'When the mail server accepted it; null unless SENT.' })
  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  /** Deliveries started (deliver.ts): counted when claimed, so a worker killed mid-send still counts. */
  @Field(() => Int, { description: 'Deliveries started so far (a delivery in progress counts).' })
  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  /** Not before then: the backoff after a failure, or the lease of a delivery in flight. Null: due now. */
  @Field(() => Date, {
    nullable: true,
    description: 'PENDING: not tried again before then (after a failure, or while a delivery is in progress); null when due now, and once SENT or FAILED.',
  })
  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt: Date | null = null;

  /** The last failure, short and sanitised (never a credential of the SMTP server). */
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed, in one short line; null when none failed, and once SENT.' })
  @Property({ type: 'string', length: 500, nullable: true })
  lastError: string | null = null;
}
