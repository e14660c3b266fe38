import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { READS } from '../../graphql/read-set';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { Account } from '../accounts/account.entity';
import { Company } from '../companies/company.entity';
import { ListItem } from '../lists/list-item.entity';
import { User } from '../users/user.entity';

export enum PersonType {
  CONTACT = 'Contact',
  LEAD = 'Lead',
}
registerEnumType(PersonType, {
  name: 'PersonType',
  description: 'Whether a person is a prospect (lead) or an established contact.',
  valuesConfig: {
    CONTACT: { description: 'An established contact.' },
    LEAD: { description: 'A prospect not yet qualified; becoming a contact sets convertedAt.' },
  },
});

const text = (length = 255) => ({ type: 'string', length, nullable: true }) as const;

/**
 * An index the migrations create as SQL (trigram and jsonb GIN, sorts on lower(..)): declared with
 * the migration's own statement so the ORM knows it (it compares expression indexes by name) and a
 * schema diff never proposes dropping it.
 */
const sqlIndex = (name: string, definition: string) => ({ name, expression: `create index "${name}" on "people" ${definition}` });

@Entity({ tableName: 'people' })
@Index({ properties: ['account', 'owner'] })
@Index({ properties: ['account', 'company'] })
@Index({ properties: ['account', 'lastName'] })
@Index({ properties: ['account', 'createdAt'] })
@Index({ properties: ['account', 'updatedAt'] })
// Filters, sorts and list orders (migrations 20261122000001..3).
@Index({ name: 'people_account_lead_status', properties: ['account', 'leadStatus'] })
@Index({ name: 'people_account_lead_source', properties: ['account', 'leadSource'] })
@Index({ name: 'people_account_type', properties: ['account', 'type'] })
@Index({ name: 'people_account_converted_at', properties: ['account', 'convertedAt'] })
@Index({ name: 'people_account_first_name', properties: ['account', 'firstName'] })
@Index({ name: 'people_sort_id', properties: ['account', 'id'] })
@Index({ name: 'people_sort_work_postal_code', properties: ['account', 'workPostalCode', 'id'] })
@Index({ name: 'people_sort_last_emailed_at', properties: ['account', 'lastEmailedAt', 'id'] })
@Index(sqlIndex('people_name_trgm', `using gin ((coalesce("first_name", '') || ' ' || "last_name") gin_trgm_ops)`))
@Index(sqlIndex('people_emails_trgm', `using gin ((coalesce("email", '') || ' ' || coalesce("email2", '') || ' ' || coalesce("home_email", '')) gin_trgm_ops)`))
@Index(sqlIndex('people_phones_trgm', `using gin ((coalesce("phone", '') || ' ' || coalesce("mobile", '') || ' ' || coalesce("home_phone", '')) gin_trgm_ops)`))
@Index(sqlIndex('people_work_city_trgm', 'using gin ("work_city" gin_trgm_ops)'))
@Index(sqlIndex('people_work_state_trgm', 'using gin ("work_state" gin_trgm_ops)'))
@Index(sqlIndex('people_work_postal_code_trgm', 'using gin ("work_postal_code" gin_trgm_ops)'))
@Index(sqlIndex('people_position_trgm', 'using gin ("position" gin_trgm_ops)'))
@Index(sqlIndex('people_tag_ids', 'using gin ("tag_ids" jsonb_path_ops)'))
@Index(sqlIndex('people_account_default_order', '("account_id", lower("last_name"), lower("first_name"), "id")'))
@Index(sqlIndex('people_sort_first_name', '("account_id", lower("first_name"), "id")'))
@Index(sqlIndex('people_sort_last_name', '("account_id", lower("last_name"), "id")'))
@Index(sqlIndex('people_sort_email', '("account_id", lower("email"), "id")'))
@Index(sqlIndex('people_sort_position', '("account_id", lower("position"), "id")'))
@Index(sqlIndex('people_sort_work_city', '("account_id", lower("work_city"), "id")'))
@Index(sqlIndex('people_sort_work_state', '("account_id", lower("work_state"), "id")'))
@Index(sqlIndex('people_sort_work_country', '("account_id", lower("work_country"), "id")'))
@ObjectType('Person', { implements: [Node, Versioned], simpleResolvers: true, description: 'A person the account deals with: a lead (prospect) or a contact.' })
export class Person {
  [OptionalProps]?:
    | 'version'
    | 'type'
    | 'unsubscribed'
    | 'bounced'
    | 'tagIds'
    | 'mergedIds'
    | 'customFields'
    | 'createdAt'
    | 'updatedAt'
    | 'fullName'
    | 'nodeId'
    | 'databaseId'
    | 'ownerId'
    | 'companyId'
    | 'leadStatusId'
    | 'leadSourceId'
    | 'createdBy'
    | 'createdByUserId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Person', this.id);
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

  /** Who created the person (v3 `created_by_user_id`, as recorded); null for people made before it was kept. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  leadStatus: ListItem | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  leadSource: ListItem | null = null;

  @Field(() => PersonType)
  @Enum({ items: () => PersonType })
  type: PersonType = PersonType.CONTACT;

  @Field(() => String, { nullable: true }) @Property(text(100)) firstName: string | null = null;
  @Field() @Property({ type: 'string', length: 100 }) lastName!: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) summary: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) position: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) website: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) homePhone: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) mobile: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) fax: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) email: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) email2: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) homeEmail: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(2000)) imageUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) workAddress1: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) workAddress2: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) workCity: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) workState: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) workCountry: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(30)) workPostalCode: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) homeAddress1: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) homeAddress2: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) homeCity: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) homeState: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) homeCountry: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(30)) homePostalCode: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(500)) facebookUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(500)) linkedInUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) twitter: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) instantMessage: string | null = null;

  @Field() @Property({ type: 'boolean' }) unsubscribed: boolean = false;
  @Field() @Property({ type: 'boolean' }) bounced: boolean = false;

  @Field(() => Date, { nullable: true }) @Property({ type: 'datetime', nullable: true }) lastEmailedAt: Date | null = null;
  /** When a Lead became a Contact (v3 conditions[person_converted]). */
  @Field(() => Date, { nullable: true }) @Property({ type: 'datetime', nullable: true }) convertedAt: Date | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'datetime', nullable: true }) viewedAt: Date | null = null;

  /** Predefined contact tags (ListItem ids of kind contact_tag); unknown ids are dropped on write. */
  @Field(() => [Int])
  @Property({ type: 'json', defaultRaw: `'[]'` })
  tagIds: number[] = [];

  /** Values keyed `custom_label_<id>`; see CustomField. */
  @Property({ type: 'json', defaultRaw: `'{}'` })
  customFields: Record<string, unknown> = {};

  /** databaseIds of the people merged into this one (mergePeople), oldest merge first. */
  @Field(() => [Int], { description: 'databaseIds of the people merged into this one (mergePeople), in the order they were merged; empty when none.' })
  @Property({ type: 'json', defaultRaw: `'[]'` })
  mergedIds: number[] = [];

  @Field() @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'datetime' }) updatedAt: Date = new Date();

  @Field()
  @Extensions({ [READS]: ['firstName', 'lastName'] })
  get fullName(): string {
    return this.firstName && this.lastName ? `${this.firstName} ${this.lastName}` : this.firstName || this.lastName || '';
  }

  @Field(() => Int, { nullable: true })
  @Extensions({ [READS]: ['owner'] })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }

  @Field(() => Int, { nullable: true })
  @Extensions({ [READS]: ['company'] })
  get companyId(): number | null {
    return this.company?.id ?? null;
  }

  @Field(() => Int, {
    nullable: true,
    description: 'databaseId of the user who created the person; null when not known (people created before it was recorded) or that user was deleted.',
  })
  @Extensions({ [READS]: ['createdBy'] })
  get createdByUserId(): number | null {
    return this.createdBy?.id ?? null;
  }

  @Field(() => Int, { nullable: true })
  @Extensions({ [READS]: ['leadStatus'] })
  get leadStatusId(): number | null {
    return this.leadStatus?.id ?? null;
  }

  @Field(() => Int, { nullable: true })
  @Extensions({ [READS]: ['leadSource'] })
  get leadSourceId(): number | null {
    return this.leadSource?.id ?? null;
  }
}
