import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { CustomField } from './custom-field.entity';

/**
 * One choice of a dropdown or multi-select custom field (DECISIONS: Admin surface:
 * `/admin/custom_field_label_dropdown_entries.json`, `{id, name, position}`). Records hold entry
 * ids; deleting an entry removes its id from every record's value (the service, same
 * transaction), deleting its field deletes it (`on delete cascade`).
 */
@Entity({ tableName: 'custom_field_entries' })
@Index({ name: 'custom_field_entries_field_position', properties: ['customField', 'position'] })
@Index({ name: 'custom_field_entries_account', properties: ['account'] })
@Unique({
  name: 'custom_field_entries_field_name_unique',
  expression: `create unique index "custom_field_entries_field_name_unique" on "custom_field_entries" ("custom_field_id", lower("name"))`,
})
@ObjectType('CustomFieldEntry', {
  implements: Node,
  simpleResolvers: true,
  description: 'One choice of a dropdown or multi-select custom field (v3: a dropdown entry).',
})
export class CustomFieldEntry {
  [OptionalProps]?: 'position' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId' | 'customFieldLabelId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('CustomFieldEntry', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => CustomField, { deleteRule: 'cascade' })
  customField!: CustomField;

  @Field({ description: 'Name, unique among the entries of its field (case-insensitive), at most 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => Int, { description: "Place in its field's list (0 or more); ordered by position, then databaseId." })
  @Property({ type: 'integer' })
  position: number = 0;

  @Field({ description: 'When the entry was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the entry was last changed.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => Int, { description: 'databaseId of the custom field (label) the entry belongs to.' })
  get customFieldLabelId(): number {
    return this.customField.id;
  }
}
