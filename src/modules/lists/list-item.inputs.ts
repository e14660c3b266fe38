import { Field, InputType, Int } from 'type-graphql';

/** Writable fields of an admin list item. Absent = unchanged; `name` is required on create. */
@InputType('ListItemInput')
export class ListItemInput {
  @Field(() => String, { nullable: true, description: 'Required; at most 100 characters; unique in its list (case-insensitive)' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Lead statuses only: a #rrggbb colour (ignored for other lists); null clears it' })
  hexColor?: string | null;

  @Field(() => Int, { nullable: true, description: 'Sort order within the list (0 or more); defaults to the end of the list on create' })
  position?: number | null;
}
