import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { Company } from '../companies/company.entity';
import { Deal } from '../deals/deal.entity';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';

/** v3 §2.1 `type`: a task (CalendarTask, a due date) or an event (CalendarEvent, a start and an end). */
export enum CalendarEntryKind {
  TASK = 'task',
  EVENT = 'event',
}
registerEnumType(CalendarEntryKind, {
  name: 'CalendarEntryKind',
  description: 'What a calendar entry is: a task (an optional due date) or an event (a start and an end).',
  valuesConfig: {
    TASK: { description: 'A task (v3 CalendarTask): done by a day (dueDate), or someday when it has none; all day by default.' },
    EVENT: { description: 'An event (v3 CalendarEvent): from startTime to endTime, both required; not all day by default.' },
  },
});

/** v3 §2.1 `association_type`: what the entry is about. */
export enum CalendarAssociationType {
  DEAL = 'Deal',
  PERSON = 'Person',
  COMPANY = 'Company',
}
registerEnumType(CalendarAssociationType, {
  name: 'CalendarAssociationType',
  description: 'The kind of record a calendar entry is about.',
  valuesConfig: {
    DEAL: { description: 'A deal (associationId is dealId).' },
    PERSON: { description: 'A person (associationId is personId).' },
    COMPANY: { description: 'A company (associationId is companyId, the company the entry is tied to).' },
  },
});

/** An index the migration creates as SQL: declared with its statement. */
const sqlIndex = (name: string, definition: string) => ({ name, expression: `create index "${name}" on "calendar_entries" ${definition}` });

/**
 * A calendar entry (v3 §2.1): a task or an event, owned by a user, about a deal, person or company
 * (`association_type` + `association_id`) and tied to a company (`company_id`; for a company
 * association the same column). The association is kept as the three link columns `deal_id`,
 * `person_id`, `company_id` (what visibility, nested lists and the deletion of a linked record
 * work on), `association_type` saying which of them is the association.
 *
 * Recurring series (RFC 5545, issue 14 §3): the base entry holds `rrule`/`rdate`/`exrule`/`exdate`
 * and `time_zone` (the zone its wall times recur in); each occurrence is an entry of its own with
 * `base_entry_id` = the base. `active` false is a deleted series' entry (hidden, v3 §3).
 */
@Entity({ tableName: 'calendar_entries' })
@Index({ name: 'calendar_entries_account_created', properties: ['account', 'createdAt', 'id'] })
@Index({ name: 'calendar_entries_account_updated', properties: ['account', 'updatedAt', 'id'] })
@Index({ name: 'calendar_entries_account_due', properties: ['account', 'dueDate', 'id'] })
@Index({ name: 'calendar_entries_account_start', properties: ['account', 'startTime', 'id'] })
@Index({ name: 'calendar_entries_account_end', properties: ['account', 'endTime'] })
@Index({ name: 'calendar_entries_account_owner', properties: ['account', 'owner'] })
@Index({ name: 'calendar_entries_deal', properties: ['deal', 'createdAt', 'id'] })
@Index({ name: 'calendar_entries_person', properties: ['person', 'createdAt', 'id'] })
@Index({ name: 'calendar_entries_company', properties: ['company', 'createdAt', 'id'] })
@Index({ name: 'calendar_entries_category', properties: ['category'] })
@Index({ name: 'calendar_entries_priority', properties: ['calendarEntryPriority'] })
// A series' entries (recurrences_of, re-expansion, delete): the base's recurrences in order.
@Index(sqlIndex('calendar_entries_series', '("base_entry_id", "id") where "base_entry_id" is not null'))
@ObjectType('CalendarEntry', {
  implements: [Node, Versioned],
  simpleResolvers: true,
  description: 'A task or an event of the calendar (v3 "calendar entry"), possibly one occurrence of a recurring series.',
})
export class CalendarEntry {
  [OptionalProps]?:
    | 'version'
    | 'owner'
    | 'name'
    | 'description'
    | 'category'
    | 'calendarEntryPriority'
    | 'startTime'
    | 'endTime'
    | 'allDay'
    | 'dueDate'
    | 'complete'
    | 'completedAt'
    | 'associationKind'
    | 'deal'
    | 'person'
    | 'company'
    | 'active'
    | 'baseEntry'
    | 'rrule'
    | 'rdate'
    | 'exrule'
    | 'exdate'
    | 'recurrenceEnd'
    | 'partOfRecurringSeries'
    | 'createdAt'
    | 'updatedAt'
    | 'nodeId'
    | 'databaseId'
    | 'ownerId'
    | 'categoryId'
    | 'calendarEntryPriorityId'
    | 'associationType'
    | 'associationId'
    | 'dealId'
    | 'personId'
    | 'companyId'
    | 'baseEntryId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('CalendarEntry', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => CalendarEntryKind, { description: 'Task or event (v3 type CalendarTask or CalendarEvent); set on create.' })
  @Enum({ items: () => CalendarEntryKind })
  kind!: CalendarEntryKind;

  /** The owner (v3 `owner_id`). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  owner: User | null = null;

  @Field(() => String, { nullable: true, description: 'What the entry is called.' })
  @Property({ type: 'string', length: 255, nullable: true })
  name: string | null = null;

  @Field(() => String, { nullable: true, description: 'Free text about the entry.' })
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  /** v3 `category_id`: an item of the event categories list. */
  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  category: ListItem | null = null;

  /** v3 `calendar_entry_priority_id`: an item of the calendar entry priorities list. */
  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  calendarEntryPriority: ListItem | null = null;

  @Field(() => Date, { nullable: true, description: 'When an event starts; null for tasks.' })
  @Property({ type: 'datetime', nullable: true })
  startTime: Date | null = null;

  @Field(() => Date, { nullable: true, description: 'When an event ends (never before it starts); null for tasks.' })
  @Property({ type: 'datetime', nullable: true })
  endTime: Date | null = null;

  @Field({ description: 'Whether the entry takes whole days: true by default for tasks, false for events.' })
  @Property({ type: 'boolean', default: false })
  allDay: boolean = false;

  @Field(() => String, { nullable: true, description: 'The day a task is due (YYYY-MM-DD); null for events and for tasks due someday.' })
  @Property({ type: 'date', nullable: true })
  dueDate: string | null = null;

  /** The zone the entry's wall times (and a series' recurrences) are read in: the writer's zone. */
  @Field({ description: 'The time zone (IANA name) a recurring series repeats in: the zone of the user who last set its rule or times.' })
  @Property({ type: 'string', length: 64 })
  timeZone!: string;

  @Field({ description: 'Whether the entry is done.' })
  @Property({ type: 'boolean', default: false })
  complete: boolean = false;

  @Field(() => Date, { nullable: true, description: 'When the entry was marked complete; null while it is not.' })
  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;

  /** Which link column is the association (v3 `association_type`); the record itself is in deal/person/company. */
  @Enum({ items: () => CalendarAssociationType, nullable: true, fieldName: 'association_type' })
  associationKind: CalendarAssociationType | null = null;

  @ManyToOne(() => Deal, { nullable: true, deleteRule: 'set null' })
  deal: Deal | null = null;

  @ManyToOne(() => Person, { nullable: true, deleteRule: 'set null' })
  person: Person | null = null;

  /** v3 `company_id`: the company the entry is tied to (also the association when it is a company). */
  @ManyToOne(() => Company, { nullable: true, deleteRule: 'set null' })
  company: Company | null = null;

  @Field({ description: "false once the entry's series was deleted: such entries are left out of lists unless asked for, and are not found by id." })
  @Property({ type: 'boolean', default: true })
  active: boolean = true;

  /** The first entry of the recurring series this one belongs to (v3 `base_entry_id`); null on a base and on entries of no series. */
  @ManyToOne(() => CalendarEntry, { nullable: true, deleteRule: 'cascade' })
  baseEntry: CalendarEntry | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'The recurrence rule of a series (RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=MO;COUNT=10); only on the base entry.',
  })
  @Property({ type: 'text', nullable: true })
  rrule: string | null = null;

  @Field(() => String, { nullable: true, description: 'Extra dates of a series (RFC 5545 RDATE values, comma-separated); only on the base entry.' })
  @Property({ type: 'text', nullable: true })
  rdate: string | null = null;

  @Field(() => String, { nullable: true, description: 'A rule of dates left out of a series (RFC 5545 EXRULE); only on the base entry.' })
  @Property({ type: 'text', nullable: true })
  exrule: string | null = null;

  @Field(() => String, { nullable: true, description: 'Dates left out of a series (RFC 5545 EXDATE values, comma-separated); only on the base entry.' })
  @Property({ type: 'text', nullable: true })
  exdate: string | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      "The last day the series has an entry for (YYYY-MM-DD, in its time zone): its rule's last occurrence, or the last one stored when the rule runs past the stored horizon; null for entries of no series.",
  })
  @Property({ type: 'date', nullable: true })
  recurrenceEnd: string | null = null;

  @Field({ description: 'Whether the entry belongs to a recurring series (as its base or as one of its occurrences).' })
  @Property({ type: 'boolean', default: false })
  partOfRecurringSeries: boolean = false;

  @Field({ description: 'When the entry was created.' }) @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field({ description: 'When the entry last changed.' }) @Property({ type: 'datetime' }) updatedAt: Date = new Date();

  @Field(() => Int, { nullable: true, description: "databaseId of the entry's owner." })
  @Extensions({ [READS]: ['owner'] })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: "databaseId of the entry's category (an item of the event categories list)." })
  @Extensions({ [READS]: ['category'] })
  get categoryId(): number | null {
    return this.category?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: "databaseId of the entry's priority (an item of the calendar entry priorities list)." })
  @Extensions({ [READS]: ['calendarEntryPriority'] })
  get calendarEntryPriorityId(): number | null {
    return this.calendarEntryPriority?.id ?? null;
  }
  @Field(() => CalendarAssociationType, {
    nullable: true,
    description: 'The kind of record the entry is about; null when it is about none (or that record was deleted).',
  })
  @Extensions({ [READS]: ['associationKind', 'deal', 'person', 'company'] })
  get associationType(): CalendarAssociationType | null {
    return this.associationId === null ? null : this.associationKind;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the deal, person or company the entry is about (see associationType).' })
  @Extensions({ [READS]: ['associationKind', 'deal', 'person', 'company'] })
  get associationId(): number | null {
    switch (this.associationKind) {
      case CalendarAssociationType.DEAL:
        return this.deal?.id ?? null;
      case CalendarAssociationType.PERSON:
        return this.person?.id ?? null;
      case CalendarAssociationType.COMPANY:
        return this.company?.id ?? null;
      default:
        return null;
    }
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the deal the entry is about, if any.' })
  @Extensions({ [READS]: ['deal'] })
  get dealId(): number | null {
    return this.deal?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the person the entry is about, if any.' })
  @Extensions({ [READS]: ['person'] })
  get personId(): number | null {
    return this.person?.id ?? null;
  }
  @Field(() => Int, {
    nullable: true,
    description: 'databaseId of the company the entry is tied to, if any (the associated company when associationType is COMPANY).',
  })
  @Extensions({ [READS]: ['company'] })
  get companyId(): number | null {
    return this.company?.id ?? null;
  }
  @Field(() => Int, {
    nullable: true,
    description: 'databaseId of the first (base) entry of the recurring series this entry is an occurrence of; null on a base and on entries of no series.',
  })
  @Extensions({ [READS]: ['baseEntry'] })
  get baseEntryId(): number | null {
    return this.baseEntry?.id ?? null;
  }
}
