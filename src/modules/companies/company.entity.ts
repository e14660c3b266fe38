import { Entity, OptionalProps, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { READS } from '../../graphql/read-set';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

const text = (length = 255) => ({ type: 'string', length, nullable: true }) as const;

/**
 * An index the migrations create as SQL (lower(..) text_pattern_ops prefixes, trigram GIN, list
 * orders on lower(..)): declared with the migration's own statement so the ORM knows it (it
 * compares expression indexes by name) and a schema diff never proposes dropping it.
 */
const sqlIndex = (name: string, definition: string) => ({ name, expression: `create index "${name}" on "companies" ${definition}` });

@Entity({ tableName: 'companies' })
@Index({ properties: ['account', 'owner'] })
@Index({ properties: ['account', 'createdAt'] })
@Index({ properties: ['account', 'updatedAt'] })
// Filters, sorts and list orders (migrations 20261122000001..3).
@Index({ name: 'companies_account_name', properties: ['account', 'name'] })
@Index({ name: 'companies_account_imported_at', properties: ['account', 'importedAt'] })
@Index({ name: 'companies_sort_id', properties: ['account', 'id'] })
@Index({ name: 'companies_sort_city', properties: ['account', 'city', 'id'] })
@Index({ name: 'companies_sort_state', properties: ['account', 'state', 'id'] })
@Index({ name: 'companies_sort_country', properties: ['account', 'country', 'id'] })
@Index({ name: 'companies_sort_postal_code', properties: ['account', 'postalCode', 'id'] })
@Index({ name: 'companies_sort_email', properties: ['account', 'email', 'id'] })
@Index(sqlIndex('companies_name_trgm', 'using gin ("name" gin_trgm_ops)'))
@Index(sqlIndex('companies_account_name_lower', '("account_id", lower("name") text_pattern_ops)'))
@Index(sqlIndex('companies_description_prefix', '("account_id", lower(left("description", 200)) text_pattern_ops)'))
@Index(sqlIndex('companies_email_prefix', '("account_id", lower("email") text_pattern_ops)'))
@Index(sqlIndex('companies_fax_prefix', '("account_id", lower("fax") text_pattern_ops)'))
@Index(sqlIndex('companies_phone1_prefix', '("account_id", lower("phone1") text_pattern_ops)'))
@Index(sqlIndex('companies_phone2_prefix', '("account_id", lower("phone2") text_pattern_ops)'))
@Index(sqlIndex('companies_phone3_prefix', '("account_id", lower("phone3") text_pattern_ops)'))
@Index(sqlIndex('companies_phone4_prefix', '("account_id", lower("phone4") text_pattern_ops)'))
@Index(sqlIndex('companies_address1_prefix', '("account_id", lower("address1") text_pattern_ops)'))
@Index(sqlIndex('companies_address2_prefix', '("account_id", lower("address2") text_pattern_ops)'))
@Index(sqlIndex('companies_city_prefix', '("account_id", lower("city") text_pattern_ops)'))
@Index(sqlIndex('companies_state_prefix', '("account_id", lower("state") text_pattern_ops)'))
@Index(sqlIndex('companies_postal_code_prefix', '("account_id", lower("postal_code") text_pattern_ops)'))
@Index(sqlIndex('companies_country_prefix', '("account_id", lower("country") text_pattern_ops)'))
@Index(sqlIndex('companies_account_default_order', '("account_id", lower("name"), "id")'))
@ObjectType('Company', {
  implements: [Node, Versioned],
  simpleResolvers: true,
  description: 'An organisation the account deals with; people can belong to it.',
})
export class Company {
  [OptionalProps]?: 'version' | 'customFields' | 'mergedIds' | 'createdAt' | 'updatedAt' | 'ownerId' | 'nodeId' | 'databaseId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

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
  @Property({ type: 'json', defaultRaw: `'{}'` })
  customFields: Record<string, unknown> = {};

  /** databaseIds of the companies merged into this one (mergeCompanies), oldest merge first. */
  @Field(() => [Int], { description: 'databaseIds of the companies merged into this one (mergeCompanies), in the order they were merged; empty when none.' })
  @Property({ type: 'json', defaultRaw: `'[]'` })
  mergedIds: number[] = [];

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
  @Extensions({ [READS]: ['owner'] })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }
}
