import { DecimalType, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { READS } from '../../graphql/read-set';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { Account } from '../accounts/account.entity';
import { Company } from '../companies/company.entity';
import { DealStage } from '../deal-stages/deal-stage.entity';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';
// Type only: the calendar entry entity imports Deal; the relation below names it by string.
import type { CalendarEntry } from '../calendar/calendar-entry.entity';

/**
 * `numeric` as exact text. MikroORM's DecimalType compares values as floats to find changes, which
 * cannot tell two amounts apart beyond 15 significant digits: an update could be lost. This one
 * compares the text (both sides canonical: PostgreSQL's or toMoney's).
 */
export class ExactDecimalType extends DecimalType {
  constructor() {
    super('string');
  }
  override compareValues(a: string, b: string): boolean {
    return a == null || b == null ? a === b : canonical(a) === canonical(b);
  }
}

/** `5000.5000` and `5000.5` are one amount: trailing fraction zeros and leading zeros dropped. */
const canonical = (v: string) => {
  const [int, frac = ''] = String(v).replace(/^\+/, '').split('.');
  return `${int.replace(/^(-?)0+(?=\d)/, '$1')}.${frac.replace(/0+$/, '')}`;
};

const money = () => ({ type: ExactDecimalType, columnType: 'numeric(19,4)', nullable: true }) as const;

/** The migration's statement for an index the ORM cannot express (a trigram GIN on the name). */
const sqlIndex = (name: string, definition: string) => ({ name, expression: `create index "${name}" on "deals" ${definition}` });

/**
 * A deal (v3 §2.5): a sale in progress, owned by a user, with a value in the account's currency,
 * a stage of the pipeline and a probability; shared with collaborators (deal_collaborators) and
 * associated with people (deal_people). Money columns hold exact decimals (numeric(19,4)).
 */
@Entity({ tableName: 'deals' })
@Index({ name: 'deals_account_owner', properties: ['account', 'owner', 'id'] })
@Index({ name: 'deals_account_stage', properties: ['account', 'stage', 'id'] })
@Index({ name: 'deals_account_company', properties: ['account', 'company'] })
@Index({ name: 'deals_account_source', properties: ['account', 'source', 'id'] })
@Index({ name: 'deals_account_value', properties: ['account', 'value', 'id'] })
@Index({ name: 'deals_account_expected_close', properties: ['account', 'expectedCloseDate', 'id'] })
@Index({ name: 'deals_account_created', properties: ['account', 'createdAt', 'id'] })
@Index({ name: 'deals_account_updated', properties: ['account', 'updatedAt', 'id'] })
@Index({ name: 'deals_account_closed_time', properties: ['account', 'closedTime', 'id'] })
@Index({ name: 'deals_account_probability', properties: ['account', 'probability', 'id'] })
// Deleting a calendar entry nulls the deal's link to it (the FK's set null looks deals up by it).
@Index({ name: 'deals_expected_close_date_event', properties: ['expectedCloseDateEvent'] })
@Index(sqlIndex('deals_name_trgm', 'using gin ("name" gin_trgm_ops)'))
@Index(sqlIndex('deals_account_name_lower', '("account_id", lower("name"), "id")'))
// Owner and stage together, newest first (the default order): measured on 1M deals (bench/README.md).
@Index(sqlIndex('deals_account_owner_stage', '("account_id", "owner_id", "stage_id", "created_at" desc, "id")'))
@ObjectType('Deal', {
  implements: [Node, Versioned],
  simpleResolvers: true,
  description: 'A sale in progress: its value, stage, probability, owner, company and people.',
})
export class Deal {
  [OptionalProps]?:
    | 'version'
    | 'customFields'
    | 'createdAt'
    | 'updatedAt'
    | 'isArchived'
    | 'isExample'
    | 'nodeId'
    | 'databaseId'
    | 'ownerId'
    | 'companyId'
    | 'primaryContactId'
    | 'dealStageId'
    | 'dealLossReasonId'
    | 'sourceId'
    | 'lastModifiedByUserId'
    | 'accountId'
    | 'expectedCloseDateEventId'
    | 'expectedCloseDateEvent';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Deal', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  owner: User | null = null;

  @ManyToOne(() => Company, { nullable: true, deleteRule: 'set null' })
  company: Company | null = null;

  @ManyToOne(() => Person, { nullable: true, deleteRule: 'set null' })
  primaryContact: Person | null = null;

  @ManyToOne(() => DealStage, { nullable: true, deleteRule: 'set null' })
  stage: DealStage | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  lossReason: ListItem | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  source: ListItem | null = null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  lastModifiedBy: User | null = null;

  /**
   * The task of the expected close date (v3 §2.5 `expected_close_date_event_id`): kept by the deal's
   * writes (deal.close-date-task.ts); null without a date, or once someone deleted the task.
   */
  @ManyToOne('CalendarEntry', { nullable: true, deleteRule: 'set null' })
  expectedCloseDateEvent: CalendarEntry | null = null;

  @Field() @Property({ type: 'string', length: 255 }) name!: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) summary: string | null = null;
  @Field(() => Int, { nullable: true }) @Property({ type: 'smallint', nullable: true }) status: number | null = null;
  @Field(() => Int, { nullable: true }) @Property({ type: 'smallint', nullable: true }) probability: number | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'date', nullable: true }) expectedCloseDate: string | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'datetime', nullable: true }) closedTime: Date | null = null;
  @Field() @Property({ type: 'boolean', default: false }) isArchived: boolean = false;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) lossReasonNotes: string | null = null;

  /** Stored exactly (numeric text); shown with the currency's places by the resolver. */
  @Property(money()) value: string | null = null;
  @Property(money()) bonus: string | null = null;
  @Property(money()) commission: string | null = null;
  @Property({ type: ExactDecimalType, columnType: 'numeric(7,4)', nullable: true }) commissionRate: string | null = null;

  /** Values keyed `custom_label_<id>`; see CustomField. */
  @Property({ type: 'json', defaultRaw: `'{}'` })
  customFields: Record<string, unknown> = {};

  @Field(() => Int, { nullable: true }) @Property({ type: 'integer', nullable: true }) importId: number | null = null;
  @Field({ description: 'Whether the deal is sample data (shown for v3 clients; always false for deals created here).' })
  @Property({ type: 'boolean', default: false })
  isExample: boolean = false;
  @Field(() => Date, { nullable: true }) @Property({ type: 'datetime', nullable: true }) viewedAt: Date | null = null;
  @Field() @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'datetime' }) updatedAt: Date = new Date();

  @Field(() => Int, { nullable: true }) get ownerId(): number | null {
    return this.owner?.id ?? null;
  }
  @Field(() => Int, { nullable: true }) get companyId(): number | null {
    return this.company?.id ?? null;
  }
  @Field(() => Int, { nullable: true }) get primaryContactId(): number | null {
    return this.primaryContact?.id ?? null;
  }
  @Field(() => Int, { nullable: true }) get dealStageId(): number | null {
    return this.stage?.id ?? null;
  }
  @Field(() => Int, { nullable: true }) get dealLossReasonId(): number | null {
    return this.lossReason?.id ?? null;
  }
  @Field(() => Int, { nullable: true }) get sourceId(): number | null {
    return this.source?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the user who last changed the deal (set on every write).' })
  get lastModifiedByUserId(): number | null {
    return this.lastModifiedBy?.id ?? null;
  }
  @Field(() => Int, {
    nullable: true,
    description:
      'databaseId of the task of the expected close date (a calendar entry named "Expected close date" in the Milestone event category, owned by the deal\'s owner); null when the deal has no expected close date or the task was deleted.',
  })
  @Extensions({ [READS]: ['expectedCloseDateEvent'] })
  get expectedCloseDateEventId(): number | null {
    return this.expectedCloseDateEvent?.id ?? null;
  }
  @Field(() => Int, { description: 'databaseId of the account the deal belongs to.' })
  get accountId(): number {
    return this.account.id;
  }
}

/** A person taking part in a deal (v3 `person_ids`). */
@Entity({ tableName: 'deal_people' })
@Index({ name: 'deal_people_person', properties: ['person', 'deal'] })
export class DealPerson {
  @ManyToOne(() => Deal, { primary: true, deleteRule: 'cascade' })
  deal!: Deal;

  @ManyToOne(() => Person, { primary: true, deleteRule: 'cascade' })
  person!: Person;
}

/** A user a deal is shared with (v3 `shared_user_ids`, `collaborators`): they see it as its owner does. */
@Entity({ tableName: 'deal_collaborators' })
@Index({ name: 'deal_collaborators_user', properties: ['user', 'deal'] })
export class DealCollaborator {
  @ManyToOne(() => Deal, { primary: true, deleteRule: 'cascade' })
  deal!: Deal;

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;
}
