import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { CustomFieldGroup } from './custom-field-group.entity';
import type { CustomFieldEntry } from './custom-field-entry.entity';
import { CustomFieldKind, CustomFieldResource } from './custom-field.enums';

export { CustomFieldKind, CustomFieldResource, ENTRY_KINDS } from './custom-field.enums';

/**
 * A custom field definition, v3's "custom field label" (DECISIONS: Admin surface). Values live in
 * each record's `custom_fields` JSON column keyed `custom_label_<id>` (v3 §1.9), so adding a field
 * never alters a table. Dropdown and multi-select fields have entries (CustomFieldEntry rows).
 */
@Entity({ tableName: 'custom_fields' })
@Index({ properties: ['account', 'resource'] })
@Index({ name: 'custom_fields_account_label', properties: ['account', 'resource', 'position'] })
@Index({ name: 'custom_fields_group', properties: ['group'] })
// Unique per account and resource ignoring case: an expression index, declared with the migration's statement.
@Unique({
  name: 'custom_fields_account_resource_name_unique',
  expression: `create unique index "custom_fields_account_resource_name_unique" on "custom_fields" ("account_id", "resource", lower("name"))`,
})
@ObjectType('CustomFieldLabel', {
  implements: Node,
  simpleResolvers: true,
  description:
    "A custom field of people, companies or deals (v3 calls it a custom field label): its values are in each record's customFields under its key, custom_label_<databaseId>.",
})
export class CustomField {
  [OptionalProps]?: 'position' | 'isRequired' | 'group' | 'createdAt' | 'updatedAt' | 'label' | 'nodeId' | 'databaseId' | 'groupId' | 'entries';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('CustomFieldLabel', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => CustomFieldResource, { description: 'The records the field belongs to; set on create, never changed.' })
  @Enum({ items: () => CustomFieldResource })
  resource!: CustomFieldResource;

  @Field(() => CustomFieldKind, { description: 'What kind of value the field holds; changed only while no record has a value for it.' })
  @Enum({ items: () => CustomFieldKind })
  kind!: CustomFieldKind;

  @Field({ description: 'Name, unique among the custom fields of its records (case-insensitive), at most 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field({ description: 'A value is required when a record is created, and cannot be cleared.' })
  @Property({ type: 'boolean' })
  isRequired: boolean = false;

  @Field(() => Int, { description: 'Place among the custom fields of its records (0 or more); ordered by position, then databaseId.' })
  @Property({ type: 'integer' })
  position: number = 0;

  @ManyToOne(() => CustomFieldGroup, { nullable: true, deleteRule: 'set null' })
  group: CustomFieldGroup | null = null;

  @Field({ description: 'When the field was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: "When the field was last changed (its entries' changes included)." })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  /**
   * Its entries, in order, when loaded with the definitions (`customFieldDefs`); no column. Other
   * projections leave it undefined: the `entries` field resolver loads them.
   */
  @Property({ type: 'json', persist: false })
  entries?: CustomFieldEntry[];

  /** The key of its values in records, `custom_label_<id>` (v3 §1.9). */
  @Field({ description: "The key of the field's values in records' customFields: custom_label_<databaseId>." })
  get label(): string {
    return `custom_label_${this.id}`;
  }

  @Field(() => Int, { nullable: true, description: "databaseId of the field's group; null when it is in none." })
  get groupId(): number | null {
    return this.group?.id ?? null;
  }
}
