import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
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
  valuesConfig: { CONTACT: { description: 'An established contact.' }, LEAD: { description: 'A prospect not yet qualified; becoming a contact sets convertedAt.' } },
});

const text = (length = 255) => ({ type: 'string', length, nullable: true }) as const;

@Entity({ tableName: 'people' })
@Index({ properties: ['account', 'owner'] })
@Index({ properties: ['account', 'company'] })
@Index({ properties: ['account', 'lastName'] })
@Index({ properties: ['account', 'createdAt'] })
@Index({ properties: ['account', 'updatedAt'] })
@ObjectType('Person', { implements: Node, simpleResolvers: true, description: 'A person the account deals with: a lead (prospect) or a contact.' })
export class Person {
  [OptionalProps]?: 'type' | 'unsubscribed' | 'bounced' | 'tagIds' | 'customFields' | 'createdAt' | 'updatedAt' | 'fullName' | 'nodeId' | 'databaseId' | 'ownerId' | 'companyId' | 'leadStatusId' | 'leadSourceId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

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
  @Property({ type: 'json' })
  tagIds: number[] = [];

  /** Values keyed `custom_label_<id>`; see CustomField. */
  @Property({ type: 'json' })
  customFields: Record<string, unknown> = {};

  @Field() @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'datetime' }) updatedAt: Date = new Date();

  @Field()
  get fullName(): string {
    return [this.firstName, this.lastName].filter(Boolean).join(' ');
  }

  @Field(() => Int, { nullable: true })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }

  @Field(() => Int, { nullable: true })
  get companyId(): number | null {
    return this.company?.id ?? null;
  }

  @Field(() => Int, { nullable: true })
  get leadStatusId(): number | null {
    return this.leadStatus?.id ?? null;
  }

  @Field(() => Int, { nullable: true })
  get leadSourceId(): number | null {
    return this.leadSource?.id ?? null;
  }
}
