import { Field, InputType } from 'type-graphql';

/* The record's own fields (inputs, filter, order) are declared once in company.fields.ts. */

@InputType('CompanyCreateOptions')
export class CompanyCreateOptions {
  @Field({
    defaultValue: false,
    description: 'Refuse the company (DUPLICATE user error) when another company of the account has the same name, ignoring case (default false).',
  })
  checkForDuplicates: boolean = false;
}

@InputType('CompanyUpdateOptions')
export class CompanyUpdateOptions {
  @Field({ defaultValue: true, description: 'Email the new owner when the owner changes to someone other than the viewer (default true).' })
  deliverReassignmentEmail: boolean = true;
}
