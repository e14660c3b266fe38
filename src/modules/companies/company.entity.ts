import { Entity, OptionalProps, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

const text = (length = 255) => ({ type: 'string', length, nullable: true }) as const;

@Entity({ tableName: 'companies' })
@Index({ properties: ['account', 'owner'] })
@Index({ properties: ['account', 'createdAt'] })
@Index({ properties: ['account', 'updatedAt'] })
@ObjectType('Company', { implements: Node, simpleResolvers: true, description: 'An organisation the account deals with; people can belong to it.' })
export class Company {
  [OptionalProps]?: 'customFields' | 'createdAt' | 'updatedAt' | 'ownerId' | 'nodeId' | 'databaseId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Company', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  owner: User | null = null;

  @Field()
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) email: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ ...text(), fieldName: 'web' }) website: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) fax: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) address1: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text()) address2: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) city: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) state: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(30)) postalCode: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) country: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone1: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone2: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone3: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone4: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone1Desc: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone2Desc: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone3Desc: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(100)) phone4Desc: string | null = null;
  @Field(() => String, { nullable: true }) @Property(text(2000)) imageUrl: string | null = null;

  /** Values keyed `custom_label_<id>`; see CustomField. */
  @Property({ type: 'json' })
  customFields: Record<string, unknown> = {};

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  importId: number | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  importedAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => Int, { nullable: true })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }
}
