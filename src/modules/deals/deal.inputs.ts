import { Field, InputType, Int } from 'type-graphql';

/* The record's own fields (inputs, filter, order) are declared once in deal.fields.ts. */

@InputType('DealCreateOptions', { description: 'How createDeal behaves beyond the record itself.' })
export class DealCreateOptions {
  @Field(() => Int, {
    nullable: true,
    description:
      'databaseId of a deals todo template to apply; one that does not exist is a NOT_FOUND user error. It makes one task per item, about the deal (see TodoTemplateItem).',
  })
  todoTemplateId?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "databaseId of the user (of the account) who owns the tasks the todo template creates; the deal's owner when absent.",
  })
  todoTemplateUserId?: number | null;
}

@InputType('DealUpdateOptions', { description: 'How updateDeal behaves beyond the record itself.' })
export class DealUpdateOptions {
  @Field(() => Int, {
    nullable: true,
    description:
      'databaseId of a deals todo template to apply; one that does not exist is a NOT_FOUND user error. It makes one task per item, about the deal (see TodoTemplateItem).',
  })
  todoTemplateId?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "databaseId of the user (of the account) who owns the tasks the todo template creates; the deal's owner when absent.",
  })
  todoTemplateUserId?: number | null;
}
