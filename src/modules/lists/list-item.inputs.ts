import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { OrderDirection } from '../../graphql/connection';
import { HEX_COLOR_MAX } from './list-item.entity';

@InputType('ListItemCreateInput', { description: 'A new item of an admin list.' })
export class ListItemCreateInput {
  @Field(() => String, { description: 'Required; at most 100 characters; unique in its list (case-insensitive).' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: `Lead statuses and calendar entry priorities only: a colour, kept as given (e.g. #1a2b3c, C73408, fff), at most ${HEX_COLOR_MAX} characters (ignored for other lists).`,
  })
  hexColor?: string | null;

  @Field(() => Int, { nullable: true, description: 'Place in the list (0 or more); the end of the list when absent.' })
  position?: number | null;

  @Field(() => Int, { nullable: true, description: 'Lead sources only: what one lead costs, in cents (0 or more); ignored for other lists.' })
  costPerLeadInCents?: number | null;

  @Field(() => Int, { nullable: true, description: 'Lead sources only: a flat fee for the source, in cents (0 or more); ignored for other lists.' })
  flatFeeInCents?: number | null;
}

@InputType('ListItemUpdateInput', { description: 'Changes to an admin list item: only the fields given change.' })
export class ListItemUpdateInput {
  @Field(() => String, { nullable: true, description: 'At most 100 characters; unique in its list (case-insensitive); cannot be blank.' })
  name?: string | null;

  @Field(() => String, {
    nullable: true,
    description: `Lead statuses and calendar entry priorities only: a colour, kept as given (e.g. #1a2b3c, C73408, fff), at most ${HEX_COLOR_MAX} characters; null or blank clears it.`,
  })
  hexColor?: string | null;

  @Field(() => Int, { nullable: true, description: 'Place in the list (0 or more); null leaves it.' })
  position?: number | null;

  @Field(() => Int, { nullable: true, description: 'Lead sources only: what one lead costs, in cents (0 or more); null clears it.' })
  costPerLeadInCents?: number | null;

  @Field(() => Int, { nullable: true, description: 'Lead sources only: a flat fee for the source, in cents (0 or more); null clears it.' })
  flatFeeInCents?: number | null;
}

/** What the service applies: either input. */
export type ListItemInput = ListItemUpdateInput;

export enum ListItemOrderField {
  POSITION = 'position',
  NAME = 'name',
  ID = 'id',
  CREATED_AT = 'created_at',
  UPDATED_AT = 'updated_at',
}
registerEnumType(ListItemOrderField, {
  name: 'ListItemOrderField',
  description: 'A key admin list items can be ordered by.',
  valuesConfig: {
    POSITION: { description: 'Place in the list (the default).' },
    NAME: { description: 'Name, ignoring case.' },
    ID: { description: 'databaseId (creation order).' },
    CREATED_AT: { description: 'Creation time.' },
    UPDATED_AT: { description: 'Last change.' },
  },
});

@InputType('ListItemOrder', { description: 'One ordering key of an admin list; databaseId breaks ties.' })
export class ListItemOrder {
  @Field(() => ListItemOrderField, { description: 'What to order by.' }) field!: ListItemOrderField;
  @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC, description: 'Ascending (default) or descending.' }) direction: OrderDirection =
    OrderDirection.ASC;
}
