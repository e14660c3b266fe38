import { Field, InputType, Int } from 'type-graphql';

/* The record's own fields (inputs, filter, order) are declared once in person.fields.ts. */
export type { PersonInput } from './person.fields';

/*
 * Option flags are nullable with defaults (null/absent = the default): graphql-jit 0.8.9, which runs the
 * facade's operations, does not apply the default of a *non-null* input field missing from a variable.
 */
@InputType('PersonCreateOptions')
export class PersonCreateOptions {
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Refuse the person (DUPLICATE user error) when a contact the viewer may see has the same last name and email, ignoring case.',
  })
  checkForDuplicates?: boolean | null = false;

  @Field(() => Boolean, { nullable: true, defaultValue: true, description: 'Email the owner when it is not the viewer (default true).' })
  deliverAssignmentEmail?: boolean | null = true;

  @Field(() => Int, {
    nullable: true,
    description:
      'databaseId of a people-based todo template to apply; one that does not exist is a NOT_FOUND user error. It makes one task per item, about the person (see TodoTemplateItem).',
  })
  todoTemplateId?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "databaseId of the user (of the account) who owns the tasks the todo template creates; the person's owner when absent.",
  })
  todoTemplateUserId?: number | null;
}

@InputType('PersonUpdateOptions')
export class PersonUpdateOptions {
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'Email the new owner when the owner changes to someone other than the viewer (default true).',
  })
  deliverReassignmentEmail?: boolean | null = true;

  @Field(() => Int, {
    nullable: true,
    description:
      'databaseId of a people-based todo template to apply; one that does not exist is a NOT_FOUND user error. It makes one task per item, about the person (see TodoTemplateItem).',
  })
  todoTemplateId?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "databaseId of the user (of the account) who owns the tasks the todo template creates; the person's owner when absent.",
  })
  todoTemplateUserId?: number | null;
}
