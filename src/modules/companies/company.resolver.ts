import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { relationField, type RelationPreload } from '../../graphql/relations';
import { recordResource } from '../common/record-resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Company } from './company.entity';
import { COMPANY_FIELDS, type CompanyInput } from './company.fields';
import { CompanyCreateOptions, CompanyUpdateOptions } from './company.inputs';
import { CompanyService } from './company.service';
import { COMPANY_RECORDS } from './company.visibility';
import { COMPANY_CONDITIONS, COMPANY_SORT } from './company.conditions';
import { savedSearches, SavedSearchType } from '../saved-searches/saved-search.apply';

/** Default page size of company lists. */
export const COMPANIES_PAGE_SIZE = 100;

/** What a page's selected fields read: one batch per source, then row resolvers answer synchronously. */
const RELATIONS: readonly RelationPreload<Company>[] = [usersPreload('owner', 'possibleNotifyUserIds'), customFieldsPreload(CustomFieldResource.COMPANY)];

/**
 * Companies, the reference record resource (v3 §2.6, §4.6): the generated list, lookup and
 * mutations, with the service's own list (custom field conditions), create and update (owner,
 * custom fields, duplicate check, reassignment mail) and saved searches; show and delete are the defaults.
 */
export const COMPANY_RESOURCE = recordResource({
  records: COMPANY_RECORDS,
  fields: COMPANY_FIELDS,
  singular: 'company',
  plural: 'companies',
  pageSize: COMPANIES_PAGE_SIZE,
  relations: RELATIONS,
  docs: {
    list: 'Companies the viewer may see. Default order: name.',
    delete: 'Deletes a company; its people stay, without a company. A missing or hidden company is a NOT_FOUND user error.',
  },
  search: savedSearches({ type: SavedSearchType.COMPANIES, what: 'companies', conditions: COMPANY_CONDITIONS, sort: COMPANY_SORT, sortTable: 'companies' }),
  options: {
    create: { type: CompanyCreateOptions, description: 'Duplicate check.' },
    update: { type: CompanyUpdateOptions, description: 'Notification of a new owner.' },
  },
  steps: {
    list: (ctx, filter, orderBy, paging, reads) => new CompanyService(ctx).list(filter, orderBy as never, paging, reads),
    create: (ctx, input, options?: CompanyCreateOptions) => new CompanyService(ctx).create(input as CompanyInput, options),
    update: (ctx, id, input, options?: CompanyUpdateOptions) => new CompanyService(ctx).update(id, input as CompanyInput, options),
  },
});

@Resolver(() => Company)
export class CompanyFieldsResolver {
  @FieldResolver(() => User, { nullable: true, description: 'The user responsible for this company.' })
  owner(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, company.owner?.id);
  }

  @FieldResolver(() => [CustomFieldValue], { description: "Every custom field defined for companies, with this company's value (null when unset)." })
  customFields(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return customFieldsField(ctx, CustomFieldResource.COMPANY, company.customFields);
  }

  @FieldResolver(() => [Int], { description: 'databaseIds of the users who can see this company, and so may be notified about it.' })
  possibleNotifyUserIds(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return notifyUserIdsField(ctx, COMPANY_RECORDS.visibility, company);
  }
}
