import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { DateTimeRange, SortDirection } from '../../graphql/types';

/** Writable company fields (v3 §2.6). Absent = unchanged; null = cleared. */
@InputType('CompanyInput')
export class CompanyInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) web?: string | null;
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
  @Field(() => Int, { nullable: true, description: 'Defaults to the viewer on create' }) ownerId?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Keyed custom_label_<id>; unknown labels are ignored' })
  customFields?: Record<string, unknown> | null;
  @Field(() => Date, { nullable: true, description: 'For imports' }) createdAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'For imports; honoured on create only' }) updatedAt?: Date | null;
}

@InputType('CompanyCreateOptions')
export class CompanyCreateOptions {
  @Field({ defaultValue: false, description: 'Reject a company whose name equals another company of the account' })
  checkForDuplicates: boolean = false;
}

@InputType('CompanyUpdateOptions')
export class CompanyUpdateOptions {
  @Field({ defaultValue: true, description: 'Email the new owner when the owner changes' })
  deliverReassignmentEmail: boolean = true;
}

/** Every v3 company list condition (§4.6). Text conditions match exactly or by prefix, case-insensitively. */
@InputType('CompanyFilter')
export class CompanyFilter {
  @Field(() => [Int], { nullable: true }) ids?: number[] | null;
  @Field(() => [Int], { nullable: true }) ownerIds?: number[] | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'Any of phone1..phone4' }) phone?: string | null;
  @Field(() => String, { nullable: true }) fax?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) address2?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field(() => String, { nullable: true }) zip?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => DateTimeRange, { nullable: true }) created?: DateTimeRange | null;
  @Field(() => DateTimeRange, { nullable: true }) modified?: DateTimeRange | null;
  @Field(() => DateTimeRange, { nullable: true }) importedAt?: DateTimeRange | null;
}

export enum CompanySortField {
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
registerEnumType(CompanySortField, { name: 'CompanySortField' });

@InputType('CompanySort')
export class CompanySort {
  @Field(() => CompanySortField) field!: CompanySortField;
  @Field(() => SortDirection, { defaultValue: SortDirection.ASC }) direction: SortDirection = SortDirection.ASC;
}
