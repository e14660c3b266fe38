import { Arg, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../context/relations';
import { PageInput, PageOf } from '../../graphql/types';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Company } from './company.entity';
import { CompanyCreateOptions, CompanyFilter, CompanyInput, CompanySort, CompanyUpdateOptions } from './company.inputs';
import { COMPANIES, CompanyService } from './company.service';

@ObjectType('CompanyPage')
export class CompanyPage extends PageOf(Company) {}

/** What a page's selected fields read: one batch per source, then row resolvers answer synchronously. */
const RELATIONS: readonly RelationPreload<Company>[] = [usersPreload('owner', 'possibleNotifyUserIds'), customFieldsPreload(CustomFieldResource.COMPANY)];

@Resolver()
export class CompanyResolver {
  @Query(() => CompanyPage, { description: 'Companies the viewer may see' })
  async companies(
    @Ctx() ctx: RequestContext,
    @Arg('filter', () => CompanyFilter, { nullable: true }) filter?: CompanyFilter,
    @Arg('sort', () => [CompanySort], { nullable: true }) sort?: CompanySort[],
    @Arg('page', () => PageInput, { nullable: true }) page?: PageInput,
    @Info() info?: GraphQLResolveInfo,
  ) {
    const result = await new CompanyService(ctx).list(filter, sort, page);
    await preloadPage(ctx, RELATIONS, result.entries, info);
    return result;
  }

  @Query(() => Company)
  company(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return new CompanyService(ctx).get(id);
  }

  @Mutation(() => Company)
  createCompany(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CompanyInput) input: CompanyInput,
    @Arg('options', () => CompanyCreateOptions, { nullable: true }) options?: CompanyCreateOptions,
  ) {
    return new CompanyService(ctx).create(input, options);
  }

  @Mutation(() => Company)
  updateCompany(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => CompanyInput) input: CompanyInput,
    @Arg('options', () => CompanyUpdateOptions, { nullable: true }) options?: CompanyUpdateOptions,
  ) {
    return new CompanyService(ctx).update(id, input, options);
  }

  @Mutation(() => Int, { description: 'Returns the id of the deleted company' })
  deleteCompany(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return new CompanyService(ctx).delete(id);
  }
}

@Resolver(() => Company)
export class CompanyFieldsResolver {
  @FieldResolver(() => User, { nullable: true })
  owner(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, company.owner?.id);
  }

  @FieldResolver(() => [CustomFieldValue])
  customFields(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return customFieldsField(ctx, CustomFieldResource.COMPANY, company.customFields);
  }

  @FieldResolver(() => [Int], { description: 'Users who can see this company and so may be notified about it' })
  possibleNotifyUserIds(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return notifyUserIdsField(ctx, COMPANIES.visibility, company);
  }
}
