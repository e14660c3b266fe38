import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Account } from '../accounts/account.entity';

export enum CustomFieldResource {
  PERSON = 'person',
  COMPANY = 'company',
  DEAL = 'deal',
}
registerEnumType(CustomFieldResource, { name: 'CustomFieldResource' });

export enum CustomFieldKind {
  TEXT = 'text',
  NUMBER = 'number',
  DATE = 'date',
  DROPDOWN = 'dropdown',
  MULTI_SELECT = 'multi_select',
}
registerEnumType(CustomFieldKind, { name: 'CustomFieldKind' });

/**
 * A custom field definition. Values live in each record's `custom_fields` JSON column keyed
 * `custom_label_<id>` (v3 §1.9), so adding a field never alters a table.
 */
@Entity({ tableName: 'custom_fields' })
@Index({ properties: ['account', 'resource'] })
@Index({ name: 'custom_fields_account_label', properties: ['account', 'resource', 'position'] })
@ObjectType('CustomField', { simpleResolvers: true })
export class CustomField {
  [OptionalProps]?: 'choices' | 'position' | 'label';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => CustomFieldResource)
  @Enum({ items: () => CustomFieldResource })
  resource!: CustomFieldResource;

  @Field(() => CustomFieldKind)
  @Enum({ items: () => CustomFieldKind })
  kind!: CustomFieldKind;

  @Field()
  @Property({ type: 'string', length: 100 })
  name!: string;

  /** Dropdown and multi-select entries: [{id, name}]. */
  @Property({ type: 'json', defaultRaw: `'[]'` })
  choices: Array<{ id: number; name: string }> = [];

  @Field(() => Int)
  @Property({ type: 'integer' })
  position: number = 0;

  @Field()
  get label(): string {
    return `custom_label_${this.id}`;
  }
}
