import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { ChangeAction, ChangeModel } from '../changes/change.types';
import { User } from '../users/user.entity';

/**
 * Where an account's changes are sent (issue 24 §3; DECISIONS: Webhooks): a URL, the models and
 * actions it wants, optionally only updates of some fields. Admins manage them; the changes an
 * endpoint receives are those its owner (the admin who made it) may see. The signing secret is
 * shown once, when made or rotated; the previous one keeps signing beside it for a day.
 */
@Entity({ tableName: 'webhook_endpoints' })
@Index({ name: 'webhook_endpoints_account', properties: ['account'] })
@ObjectType('WebhookEndpoint', {
  implements: Node,
  simpleResolvers: true,
  description: "Where the account's changes are sent, signed (Standard Webhooks). Administrators only.",
})
export class WebhookEndpoint {
  [OptionalProps]?:
    | 'description'
    | 'actions'
    | 'onlyWhenChanged'
    | 'enabled'
    | 'failureEmail'
    | 'previousSecret'
    | 'previousSecretUntil'
    | 'lastRunAt'
    | 'failingSince'
    | 'disabledReason'
    | 'createdAt'
    | 'updatedAt'
    | 'nodeId'
    | 'databaseId'
    | 'ownerId'
    | 'accountId'
    | 'signingSecret';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('WebhookEndpoint', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => Int, { description: "The account's databaseId." })
  get accountId(): number {
    return this.account.id;
  }

  /** Whose view of the records it receives: the admin who made it (the endpoint stops when they are deleted). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  owner: User | null = null;

  @Field(() => Int, { nullable: true, description: 'The administrator who made it: it receives the changes of the records they may see.' })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }

  @Field({ description: 'Where deliveries are POSTed: http or https, at most 2048 characters, a public address (or a host of DOCUMENT_FETCH_ALLOWED_HOSTS).' })
  @Property({ type: 'string', length: 2048 })
  url!: string;

  @Field({ description: 'A name made from what it receives (v3 `name`: "API person:create").' })
  @Property({ type: 'string', length: 300 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'What it is for, at most 500 characters.' })
  @Property({ type: 'string', length: 500, nullable: true })
  description: string | null = null;

  @Field(() => [ChangeModel], { description: 'The kinds of record whose changes it receives.' })
  @Property({ type: 'json' })
  models!: ChangeModel[];

  /** The scopes of the scoped API key that made it (null: made with a full key): it receives only the changes they may read. */
  @Property({ type: 'json', nullable: true })
  scopes: string[] | null = null;

  @Field(() => [ChangeAction], { description: 'The actions it receives.' })
  @Property({ type: 'json', defaultRaw: `'["create","update","destroy"]'` })
  actions: ChangeAction[] = [ChangeAction.CREATE, ChangeAction.UPDATE, ChangeAction.DESTROY];

  @Field(() => [String], { description: 'Updates are sent only when one of these fields changed (column names, as a change names them); empty: every update.' })
  @Property({ type: 'json', defaultRaw: `'[]'` })
  onlyWhenChanged: string[] = [];

  @Field({ description: 'Deliveries are sent (false: paused, or disabled after failing; see disabledReason).' })
  @Property({ type: 'boolean', default: true })
  enabled: boolean = true;

  @Field(() => String, {
    nullable: true,
    description: 'Mailed when the endpoint is disabled (its URL answered 410 Gone, or it failed for 5 days); null: its owner is mailed at their own address.',
  })
  @Property({ type: 'string', length: 254, nullable: true })
  failureEmail: string | null = null;

  /** Signs deliveries (`whsec_` + base64): never shown but once, in the payload that made or rotated it. */
  @Property({ type: 'string', length: 100 })
  secret!: string;

  /** The secret before the last rotation, signing beside the new one until previousSecretUntil. */
  @Property({ type: 'string', length: 100, nullable: true })
  previousSecret: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  previousSecretUntil: Date | null = null;

  @Field(() => Date, { nullable: true, description: 'When a delivery was last attempted.' })
  @Property({ type: 'datetime', nullable: true })
  lastRunAt: Date | null = null;

  /** Since when deliveries have been failing (null after a success): past 5 days the endpoint is disabled. */
  @Property({ type: 'datetime', nullable: true })
  failingSince: Date | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'Why deliveries stopped (the URL answered 410, or failed for 5 days); null while enabled or paused by hand.',
  })
  @Property({ type: 'string', length: 200, nullable: true })
  disabledReason: string | null = null;

  @Field({ description: 'When it was made.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When it last changed.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  /** Set on the instance a create or a rotation returns, for its payload only. */
  revealedSecret?: string;

  @Field(() => String, {
    nullable: true,
    description:
      'The signing secret (`whsec_…`): only in the payload of createWebhookEndpoint and rotateWebhookEndpointSecret, null anywhere else. Keep it: it is not shown again.',
  })
  get signingSecret(): string | null {
    return this.revealedSecret ?? null;
  }
}
