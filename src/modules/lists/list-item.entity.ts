import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Account } from '../accounts/account.entity';

/**
 * The account's administrative lists share one shape ({id, name} plus a few extras), so they share
 * one table: a new list (deal stages, loss reasons, event categories, ...) is a new kind, not a new
 * table, and every convenience object of them loads through one batched query.
 */
export enum ListKind {
  LEAD_STATUS = 'lead_status',
  LEAD_SOURCE = 'lead_source',
  CONTACT_TAG = 'contact_tag',
  NOTE_CATEGORY = 'note_category',
}
registerEnumType(ListKind, { name: 'ListKind', description: 'Which administrative list an item belongs to' });

@Entity({ tableName: 'list_items' })
@Index({ properties: ['account', 'kind', 'position'] })
@ObjectType('ListItem', { simpleResolvers: true, description: 'An entry of an administrative list (lead status, lead source, contact tag, note category)' })
export class ListItem {
  [OptionalProps]?: 'hexColor' | 'position' | 'createdAt' | 'updatedAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => ListKind)
  @Enum({ items: () => ListKind })
  kind!: ListKind;

  @Field()
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Lead statuses: a #rrggbb colour' })
  @Property({ type: 'string', length: 7, nullable: true })
  hexColor: string | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  position: number = 0;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
