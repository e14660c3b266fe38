import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';
import { CustomFieldResource } from './custom-field.enums';

/**
 * A named group of custom fields of one resource (DECISIONS: Admin surface:
 * `/admin/custom_field_groups.json`, `{id, name, position, type}`); fields point at it with
 * `custom_field_group_id`. Deleting a group leaves its fields ungrouped (`on delete set null`).
 */
@Entity({ tableName: 'custom_field_groups' })
@Index({ name: 'custom_field_groups_account_resource_position', properties: ['account', 'resource', 'position'] })
@Unique({
  name: 'custom_field_groups_account_resource_name_unique',
  expression: `create unique index "custom_field_groups_account_resource_name_unique" on "custom_field_groups" ("account_id", "resource", lower("name"))`,
})
@ObjectType('CustomFieldGroup', {
  implements: Node,
  simpleResolvers: true,
  description: 'A named group of custom fields of one kind of record, to show them together.',
})
export class CustomFieldGroup {
  [OptionalProps]?: 'position' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('CustomFieldGroup', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => CustomFieldResource, { description: 'The records whose custom fields the group gathers; set on create, never changed.' })
  @Enum({ items: () => CustomFieldResource })
  resource!: CustomFieldResource;

  @Field({ description: 'Name, unique among the groups of its records (case-insensitive), at most 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => Int, { description: 'Place among the groups of its records (0 or more); ordered by position, then databaseId.' })
  @Property({ type: 'integer' })
  position: number = 0;

  @Field({ description: 'When the group was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the group was last changed.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
