import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';
import type { MailKind } from './mail-intent';

export enum OutboxStatus {
  PENDING = 'pending',
  SENT = 'sent',
  FAILED = 'failed',
}

/**
 * A mail the service owes someone (assignment, reassignment, comment notification). Written in the
 * same transaction as the change that causes it; a job delivers it (SMTP when configured) or it
 * stays readable in the outbox.
 */
@Entity({ tableName: 'outbox_messages' })
@Index({ properties: ['status', 'createdAt'] })
@Index({ properties: ['account', 'recipient'] })
export class OutboxMessage {
  [OptionalProps]?: 'payload' | 'status' | 'createdAt' | 'attempts';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  recipient!: User;

  /** One of the MailIntent kinds (outbox.service.ts), e.g. person_assignment. */
  @Property({ type: 'string', length: 64 })
  kind!: MailKind;

  @Property({ type: 'string', length: 32 })
  subjectType!: string;

  @Property({ type: 'integer' })
  subjectId!: number;

  @Property({ type: 'json', defaultRaw: `'{}'` })
  payload: Record<string, unknown> = {};

  @Enum({ items: () => OutboxStatus })
  status: OutboxStatus = OutboxStatus.PENDING;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  /** Deliveries started (deliver.ts): counted when claimed, so a worker killed mid-send still counts. */
  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  /** Not before then: the backoff after a failure, or the lease of a delivery in flight. Null: due now. */
  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt: Date | null = null;

  /** The last failure, short and sanitised (never a credential of the SMTP server). */
  @Property({ type: 'string', length: 500, nullable: true })
  lastError: string | null = null;
}
