import { registerEnumType } from 'type-graphql';
import { keyText, upsertResolver, type UpsertDeclaration } from '../common/upsert';
import { CustomFieldResource } from '../custom-fields/custom-field.enums';
import type { Company } from './company.entity';
import { COMPANY_FIELDS, type CompanyInput } from './company.fields';
import { CompanyService } from './company.service';
import { COMPANY_RECORDS } from './company.visibility';

export enum CompanyMatchKey {
  NAME = 'NAME',
}
registerEnumType(CompanyMatchKey, {
  name: 'CompanyMatchKey',
  description: 'What identifies an existing company in upsertCompanies.',
  valuesConfig: { NAME: { description: 'The name, ignoring case and surrounding spaces.' } },
});

/** Companies by name, or by an external id field (docs/upsert-and-merge.md); created and updated by CompanyService. */
export const COMPANY_UPSERT: UpsertDeclaration<Company, CompanyInput> = {
  records: COMPANY_RECORDS,
  scope: 'companies:write',
  singular: 'company',
  plural: 'Companies',
  input: COMPANY_FIELDS.CreateInput,
  matchEnum: CompanyMatchKey,
  defaultKey: CompanyMatchKey.NAME,
  keys: {
    [CompanyMatchKey.NAME]: {
      field: 'name',
      words: 'name',
      condition: (ctx, input, alias) => {
        const name = keyText(input.name);
        return name === null ? null : { sql: `lower(${alias}.name) = lower(?)`, params: [name] };
      },
    },
  },
  customFields: CustomFieldResource.COMPANY,
  fingerprint: `to_jsonb(c) - 'updated_at'`,
  create: (ctx, input) => new CompanyService(ctx).create(input),
  update: (ctx, id, input) => new CompanyService(ctx).update(id, input),
};

export const CompanyUpsertResolver = upsertResolver(COMPANY_UPSERT);
