import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { OrderDirection } from '../../graphql/connection';
import { CustomFieldFilter, DateTimeFilter, IdFilter, StringFilter } from '../../graphql/filters';

/** Writable company fields (v3 §2.6), shared by the create and update inputs. Absent = unchanged; null = cleared. */
@InputType()
abstract class CompanyFields {
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => String, { nullable: true }) fax?: string | null;
  @Field(() => String, { nullable: true }) address1?: string | null;
  @Field(() => String, { nullable: true }) address2?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => String, { nullable: true }) phone1?: string | null;
  @Field(() => String, { nullable: true }) phone2?: string | null;
  @Field(() => String, { nullable: true }) phone3?: string | null;
  @Field(() => String, { nullable: true }) phone4?: string | null;
  @Field(() => String, { nullable: true }) phone1Desc?: string | null;
  @Field(() => String, { nullable: true }) phone2Desc?: string | null;
  @Field(() => String, { nullable: true }) phone3Desc?: string | null;
  @Field(() => String, { nullable: true }) phone4Desc?: string | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => Int, { nullable: true, description: 'databaseId of the owner, a user of the account; the viewer when not given on create.' }) ownerId?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Custom field values keyed custom_label_<id> (text, number, YYYY-MM-DD date, entry id or ids); keys of no field are ignored, a key with null clears it.' })
  customFields?: Record<string, unknown> | null;
  @Field(() => Date, { nullable: true, description: 'For imports: when the record was created (ISO 8601). Ignored on update.' }) createdAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'For imports: when the record was last changed (ISO 8601); createdAt when absent. Ignored on update.' }) updatedAt?: Date | null;
}

@InputType('CompanyCreateInput', { description: 'A new company. Only name is required; the owner defaults to the viewer.' })
export class CompanyCreateInput extends CompanyFields {
  @Field(() => String, { description: 'Required; at most 255 characters.' })
  name!: string;
}

@InputType('CompanyUpdateInput', { description: 'Changes to a company: only the fields given change; null clears a field (name cannot be cleared).' })
export class CompanyUpdateInput extends CompanyFields {
  @Field(() => String, { nullable: true, description: 'At most 255 characters; cannot be blank.' })
  name?: string | null;
}

/** What the service applies: either input. */
export type CompanyInput = CompanyFields & { name?: string | null };

@InputType('CompanyCreateOptions')
export class CompanyCreateOptions {
  @Field({ defaultValue: false, description: 'Refuse the company (DUPLICATE user error) when another company of the account has the same name, ignoring case (default false).' })
  checkForDuplicates: boolean = false;
}

@InputType('CompanyUpdateOptions')
export class CompanyUpdateOptions {
  @Field({ defaultValue: true, description: 'Email the new owner when the owner changes to someone other than the viewer (default true).' })
  deliverReassignmentEmail: boolean = true;
}

/** Which companies a list holds: every field given must hold; `and`, `or`, `not` compose filters. */
@InputType('CompanyFilter', { description: 'Which companies to list: every condition given must hold; compose with and, or, not.' })
export class CompanyFilter {
  @Field(() => [CompanyFilter], { nullable: true, description: 'Every one of these filters holds (and/or/not nest at most 5 levels).' }) and?: CompanyFilter[] | null;
  @Field(() => [CompanyFilter], { nullable: true, description: 'At least one of these filters holds; an empty list matches none.' }) or?: CompanyFilter[] | null;
  @Field(() => CompanyFilter, { nullable: true, description: 'This filter does not hold.' }) not?: CompanyFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The company\'s databaseId.' }) databaseId?: IdFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Name.' }) name?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Description (startsWith reads its first 200 characters).' }) description?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Email address.' }) email?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Website.' }) website?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Any of phone1 to phone4.' }) anyPhone?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Fax number.' }) fax?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'First address line.' }) address1?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Second address line.' }) address2?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'City.' }) city?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'State or region.' }) state?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Postal code.' }) postalCode?: StringFilter | null;
  @Field(() => StringFilter, { nullable: true, description: 'Country.' }) country?: StringFilter | null;
  @Field(() => IdFilter, { nullable: true, description: 'The owner (a user\'s databaseId).' }) ownerId?: IdFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the company was created.' }) createdAt?: DateTimeFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the company was last changed.' }) updatedAt?: DateTimeFilter | null;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the company was imported.' }) importedAt?: DateTimeFilter | null;
  @Field(() => [CustomFieldFilter], { nullable: true, description: 'Conditions on custom fields, all of which must hold.' }) customFields?: CustomFieldFilter[] | null;
}

export enum CompanyOrderField {
  ID = 'id',
  NAME = 'name',
  CITY = 'city',
  STATE = 'state',
  COUNTRY = 'country',
  POSTAL_CODE = 'postal_code',
  EMAIL = 'email',
  OWNER_ID = 'owner_id',
  CREATED_AT = 'created_at',
  UPDATED_AT = 'updated_at',
}
registerEnumType(CompanyOrderField, {
  name: 'CompanyOrderField',
  description: 'A key companies can be ordered by.',
  valuesConfig: {
    ID: { description: 'databaseId (creation order).' },
    NAME: { description: 'Name, ignoring case.' },
    CITY: { description: 'City.' },
    STATE: { description: 'State or region.' },
    COUNTRY: { description: 'Country.' },
    POSTAL_CODE: { description: 'Postal code.' },
    EMAIL: { description: 'Email address.' },
    OWNER_ID: { description: 'The owner\'s databaseId.' },
    CREATED_AT: { description: 'Creation time.' },
    UPDATED_AT: { description: 'Last change.' },
  },
});

@InputType('CompanyOrder', { description: 'One ordering key of a company list; several keys order by the first, then the next, ... and finally by databaseId.' })
export class CompanyOrder {
  @Field(() => CompanyOrderField, { description: 'What to order by.' }) field!: CompanyOrderField;
  @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC, description: 'Ascending (default) or descending.' }) direction: OrderDirection = OrderDirection.ASC;
}
