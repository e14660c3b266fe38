import { registerEnumType } from 'type-graphql';
import { isValidId } from '../../graphql/ids';
import { keyText, upsertResolver, type UpsertDeclaration } from '../common/upsert';
import { CustomFieldResource } from '../custom-fields/custom-field.enums';
import type { Deal } from './deal.entity';
import { DEAL_FIELDS, type DealInput } from './deal.fields';
import { DealService } from './deal.service';
import { DEAL_RECORDS } from './deal.visibility';

export enum DealMatchKey {
  NAME_AND_COMPANY = 'NAME_AND_COMPANY',
}
registerEnumType(DealMatchKey, {
  name: 'DealMatchKey',
  description: 'What identifies an existing deal in upsertDeals.',
  valuesConfig: {
    NAME_AND_COMPANY: {
      description:
        'The name (ignoring case and surrounding spaces) and the company: companyId when given, else a company named companyName (ignoring case), else no company.',
    },
  },
});

/** Deals by name and company, or by an external id field (docs/upsert-and-merge.md); created and updated by DealService. */
export const DEAL_UPSERT: UpsertDeclaration<Deal, DealInput> = {
  records: DEAL_RECORDS,
  scope: 'deals:write',
  singular: 'deal',
  plural: 'Deals',
  input: DEAL_FIELDS.CreateInput,
  matchEnum: DealMatchKey,
  defaultKey: DealMatchKey.NAME_AND_COMPANY,
  keys: {
    [DealMatchKey.NAME_AND_COMPANY]: {
      field: 'name',
      words: 'name and company',
      condition: (ctx, input, alias) => {
        const name = keyText(input.name);
        if (name === null) return null;
        const named = `lower(${alias}.name) = lower(?)`;
        if (input.companyId != null) return { sql: `${named} and ${alias}.company_id = ?`, params: [name, isValidId(input.companyId) ? input.companyId : 0] };
        const company = keyText(input.companyName);
        if (company !== null) {
          return {
            sql: `${named} and ${alias}.company_id in (select c.id from "companies" c where c.account_id = ${alias}.account_id and lower(c.name) = lower(?))`,
            params: [name, company],
          };
        }
        return { sql: `${named} and ${alias}.company_id is null`, params: [name] };
      },
    },
  },
  customFields: CustomFieldResource.DEAL,
  fingerprint: `(to_jsonb(d) - 'updated_at' - 'last_modified_by_id' - 'viewed_at')
    || jsonb_build_object(
      'person_ids', (select coalesce(jsonb_agg(dp.person_id order by dp.person_id), '[]') from "deal_people" dp where dp.deal_id = d.id),
      'collaborator_ids', (select coalesce(jsonb_agg(dc.user_id order by dc.user_id), '[]') from "deal_collaborators" dc where dc.deal_id = d.id))`,
  create: (ctx, input) => new DealService(ctx).create(input),
  update: (ctx, id, input) => new DealService(ctx).update(id, input),
};

export const DealUpsertResolver = upsertResolver(DEAL_UPSERT);
