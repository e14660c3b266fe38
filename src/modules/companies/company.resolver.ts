import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { findManyVisible } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Company } from './company.entity';
import { COMPANY, type CompanyInput } from './company.fields';
import { CompanyCreateOptions, CompanyUpdateOptions } from './company.inputs';
import { CompanyService } from './company.service';
import { COMPANIES } from './company.visibility';
import { SavedSearchType, SEARCH_ID_DOC, withSavedSearch } from '../saved-searches/saved-search.apply';

@ObjectType('CompanyConnection', { description: 'A page of companies, with cursors.' })
export class CompanyConnection extends ConnectionOf(Company, 'Company', 'companies') {}

@ObjectType('CreateCompanyPayload', { description: 'The result of createCompany.' })
class CreateCompanyPayload extends RecordPayload(Company, 'company', 'The created company') {}

@ObjectType('UpdateCompanyPayload', { description: 'The result of updateCompany.' })
class UpdateCompanyPayload extends RecordPayload(Company, 'company', 'The company as changed') {}

@ObjectType('DeleteCompanyPayload', { description: 'The result of deleteCompany.' })
class DeleteCompanyPayload extends DeletePayload {}

/** Default page size of company lists. */
export const COMPANIES_PAGE_SIZE = 100;

registerNode({ name: 'Company', entity: Company, find: (ctx, ids) => findManyVisible(ctx, COMPANIES, ids) });

/** What a page's selected fields read: one batch per source, then row resolvers answer synchronously. */
const RELATIONS: readonly RelationPreload<Company>[] = [usersPreload('owner', 'possibleNotifyUserIds'), customFieldsPreload(CustomFieldResource.COMPANY)];

@Resolver()
export class CompanyResolver {
  @Query(() => CompanyConnection, { description: 'Companies the viewer may see. Default order: name.' })
  async companies(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => COMPANY.Filter, { nullable: true, description: 'Which companies; all of them when absent.' })
    filter?: InstanceType<typeof COMPANY.Filter>,
    @Arg('orderBy', () => [COMPANY.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof COMPANY.Order>>,
    @Info() info?: GraphQLResolveInfo,
    @Arg('searchId', () => Int, { nullable: true, description: SEARCH_ID_DOC }) searchId?: number | null,
  ): Promise<Connection<Company>> {
    const search = await withSavedSearch(ctx, SavedSearchType.COMPANIES, searchId, filter, orderBy, info);
    const result = await new CompanyService(ctx).list(search.filter, search.orderBy, pagingOf(args, COMPANIES_PAGE_SIZE), connectionReads(info));
    await preloadPage(ctx, RELATIONS, result.nodes, info);
    return result;
  }

  @Query(() => Company, { nullable: true, description: 'One company by databaseId; null when it does not exist or the viewer may not see it.' })
  company(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The company's databaseId." }) id: number) {
    return new CompanyService(ctx).get(id);
  }

  @Mutation(() => CreateCompanyPayload, { description: 'Creates a company. Problems with the input come back as userErrors, and nothing is created.' })
  createCompany(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => COMPANY.CreateInput, { description: 'The new company.' }) input: CompanyInput,
    @Arg('options', () => CompanyCreateOptions, { nullable: true, description: 'Duplicate check.' }) options?: CompanyCreateOptions,
  ) {
    return recordPayload('company', () => new CompanyService(ctx).create(input, options));
  }

  @Mutation(() => UpdateCompanyPayload, { description: 'Changes a company: only the fields given. A missing or hidden company is a NOT_FOUND user error.' })
  updateCompany(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The company's databaseId." }) id: number,
    @Arg('input', () => COMPANY.UpdateInput, { description: 'The changes.' }) input: CompanyInput,
    @Arg('options', () => CompanyUpdateOptions, { nullable: true, description: 'Notification of a new owner.' }) options?: CompanyUpdateOptions,
  ) {
    return recordPayload('company', () => new CompanyService(ctx).update(id, input, options));
  }

  @Mutation(() => DeleteCompanyPayload, {
    description: 'Deletes a company; its people stay, without a company. A missing or hidden company is a NOT_FOUND user error.',
  })
  deleteCompany(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The company's databaseId." }) id: number) {
    return deletePayload('Company', () => new CompanyService(ctx).delete(id));
  }
}

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
    return notifyUserIdsField(ctx, COMPANIES.visibility, company);
  }
}
