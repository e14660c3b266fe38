import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { OrderDirection } from '../../graphql/connection';
import { BooleanFilter, CustomFieldFilter, DateTimeFilter, EnumFilterOf, IdFilter, StringFilter } from '../../graphql/filters';
import { PersonType } from './person.entity';

/**
 * Writable person fields (v3 §2.4), shared by the create and update inputs. Absent = unchanged;
 * null = cleared (a required field cannot be cleared: BLANK).
 */
@InputType()
abstract class PersonFields {
  @Field(() => String, { nullable: true }) firstName?: string | null;
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
  @Field(() => Int, { nullable: true, description: 'databaseId of a company of the account the viewer may see; null removes the company.' }) companyId?: number | null;
  @Field(() => String, {
    nullable: true,
    description: "When it differs from the current company's name: finds the account's company of that name (case-insensitive) or creates one",
  })
  companyName?: string | null;
  @Field(() => Int, { nullable: true, description: 'databaseId of the owner, a user of the account; the viewer when not given on create.' }) ownerId?: number | null;
  @Field(() => PersonType, { nullable: true, description: 'Lead or contact; Lead to Contact sets convertedAt, back to Lead clears it; null keeps the current type.' }) type?: PersonType | null;
  @Field(() => Int, { nullable: true, description: 'databaseId of a lead status (an item of the lead statuses list); null clears it.' }) leadStatusId?: number | null;
  @Field(() => Int, { nullable: true, description: 'databaseId of a lead source (an item of the lead sources list); null clears it.' }) leadSourceId?: number | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => [Int], { nullable: true, description: 'databaseIds of contact tags: replaces the whole set; ids that are not contact tags of the account are ignored.' }) tagIds?: number[] | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Custom field values keyed custom_label_<id> (text, number, YYYY-MM-DD date, entry id or ids); keys of no field are ignored, a key with null clears it.' })
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
  @Field(() => Boolean, { nullable: true, description: 'The person asked not to receive emails; null means false.' }) unsubscribed?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Emails to the person bounced; null means false.' }) bounced?: boolean | null;
  @Field(() => Date, { nullable: true }) lastEmailedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'For imports: when the record was created (ISO 8601). Ignored on update.' }) createdAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'For imports: when the record was last changed (ISO 8601); createdAt when absent. Ignored on update.' }) updatedAt?: Date | null;
  @Field(() => [Int], { nullable: true, description: 'databaseIds of deals the person takes part in; ids of deals that do not exist are ignored.' })
  dealIds?: number[] | null;
}

/*
 * Option flags are nullable with defaults (null/absent = the default): graphql-jit 0.8.9, which runs the
 * facade's operations, does not apply the default of a *non-null* input field missing from a variable.
 */
@InputType('PersonCreateOptions')
export class PersonCreateOptions {
  @Field(() => Boolean, { nullable: true, defaultValue: false, description: 'Refuse the person (DUPLICATE user error) when a contact the viewer may see has the same last name and email, ignoring case.' })
  checkForDuplicates?: boolean | null = false;

  @Field(() => Boolean, { nullable: true, defaultValue: true, description: 'Email the owner when it is not the viewer (default true).' })
  deliverAssignmentEmail?: boolean | null = true;

  @Field(() => Int, { nullable: true, description: 'databaseId of a people-based todo template to apply; one that does not exist is a NOT_FOUND user error.' })
  todoTemplateId?: number | null;

  @Field(() => Int, { nullable: true, description: 'databaseId of the user (of the account) who owns the tasks the todo template creates; the viewer when absent.' })
  todoTemplateUserId?: number | null;
}

@InputType('PersonUpdateOptions')
export class PersonUpdateOptions {
  @Field(() => Boolean, { nullable: true, defaultValue: true, description: 'Email the new owner when the owner changes to someone other than the viewer (default true).' })
  deliverReassignmentEmail?: boolean | null = true;

  @Field(() => Int, { nullable: true, description: 'databaseId of a people-based todo template to apply; one that does not exist is a NOT_FOUND user error.' })
  todoTemplateId?: number | null;

  @Field(() => Int, { nullable: true, description: 'databaseId of the user (of the account) who owns the tasks the todo template creates; the viewer when absent.' })
  todoTemplateUserId?: number | null;
}


@InputType('PersonCreateInput', { description: 'A new person. Only lastName is required; the owner defaults to the viewer.' })
export class PersonCreateInput extends PersonFields {
  @Field(() => String, { description: 'Required; at most 100 characters.' })
  lastName!: string;
}

@InputType('PersonUpdateInput', { description: 'Changes to a person: only the fields given change; null clears a field (lastName cannot be cleared).' })
export class PersonUpdateInput extends PersonFields {
  @Field(() => String, { nullable: true, description: 'At most 100 characters; cannot be blank.' })
  lastName?: string | null;
}

/** What the service applies: either input. */
export type PersonInput = PersonFields & { lastName?: string | null };

@InputType('PersonTypeFilter', { description: 'Conditions on the person type.' })
export class PersonTypeFilter extends EnumFilterOf(PersonType, 'person type') {}

/**
 * Which people a list holds. Every field given must hold (and); `and`, `or` and `not` compose
 * filters. Text matching: `eq`/`in` exact, `contains`/`startsWith` case-insensitive.
 */
@InputType('PersonFilter', { description: 'Which people to list: every condition given must hold; compose with and, or, not.' })
export class PersonFilter {
  @Field(() => [PersonFilter], { nullable: true, description: 'Every one of these filters holds (and/or/not nest at most 5 levels).' }) and?: PersonFilter[] | null;
  @Field(() => [PersonFilter], { nullable: true, description: 'At least one of these filters holds; an empty list matches nobody.' }) or?: PersonFilter[] | null;
  @Field(() => PersonFilter, { nullable: true, description: 'This filter does not hold.' }) not?: PersonFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The person\'s databaseId.' }) databaseId?: IdFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'First name.' }) firstName?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Last name.' }) lastName?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'First and last name together, as in fullName ("Ada Lovelace").' }) name?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'The main email address.' }) email?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Any of email, email2 and homeEmail.' }) anyEmail?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Any of phone, mobile and homePhone.' }) anyPhone?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Job title.' }) position?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Work address city.' }) workCity?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Work address state or region.' }) workState?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Work address postal code.' }) workPostalCode?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Work address country.' }) workCountry?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'The name of the person\'s company.' }) companyName?: StringFilter | null;
  @Field(() => String, {
    nullable: true,
    description: 'Quick search, as a search box does: people whose name, email or company name contains this text (case-insensitive). Blank is ignored.',
  })
  search?: string | null;
  @Field(() => PersonTypeFilter, { nullable: true, description: 'Lead or contact.' }) type?: PersonTypeFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The owner (a user\'s databaseId).' }) ownerId?: IdFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The company (its databaseId).' }) companyId?: IdFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The lead status (a list item\'s databaseId).' }) leadStatusId?: IdFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The lead source (a list item\'s databaseId).' }) leadSourceId?: IdFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The contact tags: `eq` has this tag, `in` has any of these, `isNull: true` has none.' }) tagIds?: IdFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the person was created.' }) createdAt?: DateTimeFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the person was last changed.' }) updatedAt?: DateTimeFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the lead became a contact.' }) convertedAt?: DateTimeFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the person was last emailed.' }) lastEmailedAt?: DateTimeFilter | null;
  @Field(() => BooleanFilter, { nullable: true, description: 'Unsubscribed from emails.' }) unsubscribed?: BooleanFilter | null;
  @Field(() => BooleanFilter, { nullable: true, description: 'Emails to them bounced.' }) bounced?: BooleanFilter | null;
  @Field(() => [CustomFieldFilter], { nullable: true, description: 'Conditions on custom fields, all of which must hold.' }) customFields?: CustomFieldFilter[] | null;
}

export enum PersonOrderField {
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
registerEnumType(PersonOrderField, {
  name: 'PersonOrderField',
  description: 'A key people can be ordered by. Text keys ignore case.',
  valuesConfig: {
    ID: { description: 'databaseId (creation order).' },
    FIRST_NAME: { description: 'First name.' },
    LAST_NAME: { description: 'Last name.' },
    EMAIL: { description: 'Main email address.' },
    POSITION: { description: 'Job title.' },
    TYPE: { description: 'Contact before Lead (ascending).' },
    OWNER_ID: { description: 'The owner\'s databaseId.' },
    COMPANY_ID: { description: 'The company\'s databaseId.' },
    COMPANY_NAME: { description: 'The company\'s name.' },
    LEAD_STATUS_ID: { description: 'The lead status\'s databaseId.' },
    LEAD_SOURCE_ID: { description: 'The lead source\'s databaseId.' },
    WORK_CITY: { description: 'Work address city.' },
    WORK_STATE: { description: 'Work address state.' },
    WORK_COUNTRY: { description: 'Work address country.' },
    WORK_POSTAL_CODE: { description: 'Work address postal code.' },
    CONVERTED_AT: { description: 'When the lead became a contact.' },
    LAST_EMAILED_AT: { description: 'When last emailed.' },
    CREATED_AT: { description: 'Creation time.' },
    UPDATED_AT: { description: 'Last change.' },
  },
});

@InputType('PersonOrder', { description: 'One ordering key of a people list; several keys order by the first, then the next, ... and finally by databaseId.' })
export class PersonOrder {
  @Field(() => PersonOrderField, { description: 'What to order by.' }) field!: PersonOrderField;
  @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC, description: 'Ascending (default) or descending.' }) direction: OrderDirection = OrderDirection.ASC;
}
