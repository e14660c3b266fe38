import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { toGlobalId } from '../../graphql/node';

/**
 * The records whose changes are recorded (migration 20261203000001 holds the same list, with each
 * table): the lower snake case of their GraphQL type, which is also the v3 webhook `event_model`.
 */
export enum ChangeModel {
  DEAL = 'deal',
  PERSON = 'person',
  COMPANY = 'company',
  NOTE = 'note',
  COMMENT = 'comment',
  CALENDAR_ENTRY = 'calendar_entry',
  DOCUMENT = 'document',
  CONVERSATION = 'conversation',
  ACCOUNT_NOTIFICATION = 'account_notification',
}
registerEnumType(ChangeModel, {
  name: 'ChangeModel',
  description: 'A kind of record whose changes are recorded. A note written as a conversation (v3 /conversations) is a CONVERSATION.',
  valuesConfig: {
    DEAL: { description: 'A deal (its people and collaborators included, as its `person_ids` and `collaborator_ids`).' },
    PERSON: { description: 'A person.' },
    COMPANY: { description: 'A company.' },
    NOTE: { description: 'A note.' },
    COMMENT: { description: 'A comment on a note.' },
    CALENDAR_ENTRY: { description: 'A calendar entry (a task or an event; each occurrence of a series is one).' },
    DOCUMENT: { description: 'A document (its fetch moving it to complete or error included).' },
    CONVERSATION: { description: 'A note on a deal written through the conversations (v3 /conversations).' },
    ACCOUNT_NOTIFICATION: { description: 'An account notification.' },
  },
});

/** The GraphQL type of a model's records (`calendar_entry` → `CalendarEntry`). */
export const typeNameOf = (model: string): string => model.replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase());

export enum ChangeAction {
  CREATE = 'create',
  UPDATE = 'update',
  DESTROY = 'destroy',
}
registerEnumType(ChangeAction, {
  name: 'ChangeAction',
  description: 'What happened to the record (the v3 webhook `event_action`).',
  valuesConfig: {
    CREATE: { description: 'It was created.' },
    UPDATE: { description: 'Some of its fields changed: `changedFields` says which, with their values before and after.' },
    DESTROY: { description: 'It was deleted: `tombstone` holds it as it was.' },
  },
});

export enum ChangeActorKind {
  USER = 'user',
  APP = 'app',
  JOB = 'job',
  SYSTEM = 'system',
}
registerEnumType(ChangeActorKind, {
  name: 'ChangeActorKind',
  description: 'Who made a change.',
  valuesConfig: {
    USER: { description: "A user, with their api_key or through the service's pages." },
    APP: { description: "A registered application's app_key acting for a user." },
    JOB: { description: 'A background job (a document fetch, an import).' },
    SYSTEM: { description: 'The service itself, outside any request or job (a migration, an operator).' },
  },
});

export enum ChangeOrigin {
  V3 = 'v3',
  GRAPHQL = 'graphql',
  JOB = 'job',
  IMPORT = 'import',
  SYSTEM = 'system',
}
registerEnumType(ChangeOrigin, {
  name: 'ChangeOrigin',
  description: 'Where a change came from.',
  valuesConfig: {
    V3: { description: 'The v3 REST API (/api/v3).' },
    GRAPHQL: { description: 'The GraphQL API.' },
    JOB: { description: 'A background job.' },
    IMPORT: { description: 'An import.' },
    SYSTEM: { description: 'Outside any request or job (a migration, an operator).' },
  },
});

@ObjectType('ChangeActor', { description: 'Who made a change.' })
export class ChangeActor {
  @Field(() => ChangeActorKind, { description: 'A user, an application, a job or the system.' })
  kind!: ChangeActorKind;

  @Field(() => Int, { nullable: true, description: 'The user who made it (for a job, the user it ran for when known).' })
  userDatabaseId!: number | null;

  @Field(() => Int, { nullable: true, description: 'The registered application whose app_key came with the request.' })
  appDatabaseId!: number | null;
}

@ObjectType('ChangedField', { description: 'One field an update changed.' })
export class ChangedField {
  @Field({
    description:
      "The field, by its column name (`expected_close_date`); a custom field as `custom_fields.custom_label_<id>`; a deal's people and collaborators as `person_ids` and `collaborator_ids`.",
  })
  field!: string;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Its value before (text over 1,000 characters ends in `…[cut]`).' })
  previous!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Its value after.' })
  value!: unknown;
}

/** A change as read from record_changes. */
export interface ChangeRow {
  readonly id: string;
  readonly account_id: number;
  readonly model: ChangeModel;
  readonly action: ChangeAction;
  readonly record_id: number;
  readonly actor_kind: ChangeActorKind;
  readonly actor_user_id: number | null;
  readonly actor_app_id: number | null;
  readonly origin: ChangeOrigin;
  readonly changes: Record<string, [unknown, unknown]> | null;
  readonly record: Record<string, unknown> | null;
  readonly occurred_at: Date;
}

@ObjectType('Change', { description: 'One create, update or delete of a record, recorded in the transaction that made it.' })
export class Change {
  constructor(private readonly row: ChangeRow) {}

  @Field({ description: "Its place in the account's changes: increasing for the changes of one record (a decimal integer, beyond Int)." })
  get sequence(): string {
    return this.row.id;
  }

  @Field(() => ChangeModel, { description: 'What kind of record changed.' })
  get model(): ChangeModel {
    return this.row.model;
  }

  @Field(() => ChangeAction, { description: 'What happened to it.' })
  get action(): ChangeAction {
    return this.row.action;
  }

  @Field(() => ID, { description: 'The global id of the record (`node(id:)` finds it while it exists).' })
  get recordId(): string {
    return toGlobalId(typeNameOf(this.row.model), this.row.record_id);
  }

  @Field(() => Int, { description: 'The databaseId of the record.' })
  get recordDatabaseId(): number {
    return this.row.record_id;
  }

  @Field({ description: 'When the transaction that made it wrote the record.' })
  get occurredAt(): Date {
    return this.row.occurred_at;
  }

  @Field(() => ChangeActor, { description: 'Who made it.' })
  get actor(): ChangeActor {
    return { kind: this.row.actor_kind, userDatabaseId: this.row.actor_user_id, appDatabaseId: this.row.actor_app_id };
  }

  @Field(() => ChangeOrigin, { description: 'Where it came from.' })
  get origin(): ChangeOrigin {
    return this.row.origin;
  }

  @Field(() => [ChangedField], { description: 'An update: the fields it changed, with their values before and after (empty for a create or a delete).' })
  get changedFields(): ChangedField[] {
    return Object.entries(this.row.changes ?? {}).map(([field, [previous, value]]) => ({ field, previous, value }));
  }

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'A delete: the record as it was, by column name (secrets and internal columns left out, long text cut). Null otherwise.',
  })
  get tombstone(): Record<string, unknown> | null {
    return this.row.action === ChangeAction.DESTROY ? this.row.record : null;
  }
}

@ObjectType('ChangeEdge', { description: 'A change with the cursor just after it.' })
export class ChangeEdge {
  @Field({ description: 'Pass it as `after` to read on from just after this change.' })
  cursor!: string;

  @Field(() => Change, { description: 'The change.' })
  node!: Change;
}

@ObjectType('ChangeFeed', {
  description:
    "A page of the account's changes in the order they became visible, oldest first: pass `endCursor` as `after` to read on. Not a connection: it only goes forward, and `endCursor` is there even on an empty page, to poll from.",
})
export class ChangeFeed {
  @Field(() => [Change], { description: 'The changes of records the viewer may see (a page may hold fewer than `first` when others were skipped).' })
  nodes!: Change[];

  @Field(() => [ChangeEdge], { description: 'The same changes, each with its cursor.' })
  edges!: ChangeEdge[];

  @Field({ description: 'Where to read on from: the cursor after this page.' })
  endCursor!: string;

  @Field({ description: 'More changes were already there when this page was read.' })
  hasNextPage!: boolean;
}
