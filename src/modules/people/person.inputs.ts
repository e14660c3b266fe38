import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { DateTimeRange, SortDirection } from '../../graphql/types';
import { PersonType } from './person.entity';

/** Writable person fields (v3 §2.4). Absent = unchanged; null = cleared. */
@InputType('PersonInput')
export class PersonInput {
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Required: a person cannot be saved without one' }) lastName?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Split on the first space into firstName and lastName (one word: lastName only). It wins over firstName/lastName, ' +
      "except on update when it equals the person's current full name (a client sending back what it read).",
  })
  fullName?: string | null;
  @Field(() => String, { nullable: true }) summary?: string | null;
  @Field(() => String, { nullable: true }) position?: string | null;
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) homePhone?: string | null;
  @Field(() => String, { nullable: true }) mobile?: string | null;
  @Field(() => String, { nullable: true }) fax?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) email2?: string | null;
  @Field(() => String, { nullable: true }) homeEmail?: string | null;
  @Field(() => Int, { nullable: true, description: 'A company of the account' }) companyId?: number | null;
  @Field(() => String, {
    nullable: true,
    description: "When it differs from the current company's name: finds the account's company of that name (case-insensitive) or creates one",
  })
  companyName?: string | null;
  @Field(() => Int, { nullable: true, description: 'Defaults to the viewer on create' }) ownerId?: number | null;
  @Field(() => PersonType, { nullable: true, description: 'Lead → Contact sets convertedAt; null keeps the current type' }) type?: PersonType | null;
  @Field(() => Int, { nullable: true, description: 'A lead status (list item) of the account' }) leadStatusId?: number | null;
  @Field(() => Int, { nullable: true, description: 'A lead source (list item) of the account' }) leadSourceId?: number | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Replaces the set of predefined contact tags; unknown ids are ignored' }) tagIds?: number[] | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Keyed custom_label_<id>; unknown labels are ignored' })
  customFields?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true }) workAddress1?: string | null;
  @Field(() => String, { nullable: true }) workAddress2?: string | null;
  @Field(() => String, { nullable: true }) workCity?: string | null;
  @Field(() => String, { nullable: true }) workState?: string | null;
  @Field(() => String, { nullable: true }) workCountry?: string | null;
  @Field(() => String, { nullable: true }) workPostalCode?: string | null;
  @Field(() => String, { nullable: true }) homeAddress1?: string | null;
  @Field(() => String, { nullable: true }) homeAddress2?: string | null;
  @Field(() => String, { nullable: true }) homeCity?: string | null;
  @Field(() => String, { nullable: true }) homeState?: string | null;
  @Field(() => String, { nullable: true }) homeCountry?: string | null;
  @Field(() => String, { nullable: true }) homePostalCode?: string | null;
  @Field(() => String, { nullable: true }) facebookUrl?: string | null;
  @Field(() => String, { nullable: true }) linkedInUrl?: string | null;
  @Field(() => String, { nullable: true }) twitter?: string | null;
  @Field(() => String, { nullable: true }) instantMessage?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'null = false' }) unsubscribed?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'null = false' }) bounced?: boolean | null;
  @Field(() => Date, { nullable: true }) lastEmailedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'For imports; honoured on create only' }) createdAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'For imports; honoured on create only' }) updatedAt?: Date | null;
  @Field(() => [Int], { nullable: true, description: 'Accepted and ignored until deals exist (v3 §4.4: unknown deal ids are ignored)' })
  dealIds?: number[] | null;
}

/*
 * Option flags are nullable with defaults (null/absent = the default): graphql-jit 0.8.9, which runs the
 * facade's operations, does not apply the default of a *non-null* input field missing from a variable.
 */
@InputType('PersonCreateOptions')
export class PersonCreateOptions {
  @Field(() => Boolean, { nullable: true, defaultValue: false, description: 'Reject the person when a visible Contact has the same last name and email (case-insensitive)' })
  checkForDuplicates?: boolean | null = false;

  @Field(() => Boolean, { nullable: true, defaultValue: true, description: 'Email the owner when it is not the requesting user' })
  deliverAssignmentEmail?: boolean | null = true;

  @Field(() => Int, { nullable: true, description: 'A people-based todo template to apply. Todo templates arrive in a later issue: any id is refused as not existing.' })
  todoTemplateId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Owner of the tasks the todo template creates (a user of the account). Todo templates arrive in a later issue.' })
  todoTemplateUserId?: number | null;
}

@InputType('PersonUpdateOptions')
export class PersonUpdateOptions {
  @Field(() => Boolean, { nullable: true, defaultValue: true, description: 'Email the new owner when the owner changes' })
  deliverReassignmentEmail?: boolean | null = true;

  @Field(() => Int, { nullable: true, description: 'A people-based todo template to apply. Todo templates arrive in a later issue: any id is refused as not existing.' })
  todoTemplateId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Owner of the tasks the todo template creates (a user of the account). Todo templates arrive in a later issue.' })
  todoTemplateUserId?: number | null;
}

/** Every v3 people list condition (§4.4). Text conditions are case-insensitive substring matches. */
@InputType('PersonFilter')
export class PersonFilter {
  @Field(() => [Int], { nullable: true }) ids?: number[] | null;
  @Field(() => String, { nullable: true, description: 'First and last name' }) name?: string | null;
  @Field(() => [Int], { nullable: true }) ownerIds?: number[] | null;
  @Field(() => String, { nullable: true, description: 'Work city' }) city?: string | null;
  @Field(() => String, { nullable: true, description: 'Work state' }) state?: string | null;
  @Field(() => String, { nullable: true, description: 'Work postal code' }) zip?: string | null;
  @Field(() => String, { nullable: true }) position?: string | null;
  @Field(() => String, { nullable: true, description: "The person's company's name" }) companyName?: string | null;
  @Field(() => [Int], { nullable: true }) leadSourceIds?: number[] | null;
  @Field(() => [Int], { nullable: true, description: 'Lead status ids' }) statusIds?: number[] | null;
  @Field(() => String, { nullable: true, description: 'Any of email, email2, homeEmail' }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'First and last name (same as name)' }) fullName?: string | null;
  @Field(() => String, { nullable: true, description: 'Any of phone, mobile, homePhone' }) phone?: string | null;
  @Field(() => DateTimeRange, { nullable: true, description: 'When a Lead became a Contact' }) converted?: DateTimeRange | null;
  @Field(() => DateTimeRange, { nullable: true }) created?: DateTimeRange | null;
  @Field(() => DateTimeRange, { nullable: true }) modified?: DateTimeRange | null;
  @Field(() => String, { nullable: true, description: 'First name, last name, email or company name' }) simpleSearch?: string | null;
  @Field(() => PersonType, { nullable: true }) type?: PersonType | null;
  @Field(() => [Int], { nullable: true, description: 'People of these companies' }) companyIds?: number[] | null;
}

export enum PersonSortField {
  ID = 'id',
  FIRST_NAME = 'first_name',
  LAST_NAME = 'last_name',
  EMAIL = 'email',
  POSITION = 'position',
  TYPE = 'type',
  OWNER_ID = 'owner_id',
  COMPANY_ID = 'company_id',
  COMPANY_NAME = 'company_name',
  LEAD_STATUS_ID = 'lead_status_id',
  LEAD_SOURCE_ID = 'lead_source_id',
  WORK_CITY = 'work_city',
  WORK_STATE = 'work_state',
  WORK_COUNTRY = 'work_country',
  WORK_POSTAL_CODE = 'work_postal_code',
  CONVERTED_AT = 'converted_at',
  LAST_EMAILED_AT = 'last_emailed_at',
  CREATED_AT = 'created_at',
  UPDATED_AT = 'updated_at',
}
registerEnumType(PersonSortField, { name: 'PersonSortField' });

@InputType('PersonSort')
export class PersonSort {
  @Field(() => PersonSortField) field!: PersonSortField;
  @Field(() => SortDirection, { defaultValue: SortDirection.ASC }) direction: SortDirection = SortDirection.ASC;
}
