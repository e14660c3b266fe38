import { Arg, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { sooner } from '../../context/loaders';
import { selectedFields } from '../../graphql/selection';
import { PageInput, PageOf } from '../../graphql/types';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { CustomFieldValue, presentCustomFields } from '../custom-fields/custom-field-values';
import { User } from '../users/user.entity';
import { possibleNotifyUserIds } from '../users/visibility';
import { Company } from './company.entity';
import { CompanyCreateOptions, CompanyFilter, CompanyInput, CompanySort, CompanyUpdateOptions } from './company.inputs';
import { CompanyService } from './company.service';

@ObjectType('CompanyPage')
export class CompanyPage extends PageOf(Company) {}

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
    if (info) {
      // One batch per kind for what the page's selection reads; row resolvers then answer synchronously.
      const fields = selectedFields(info, ['entries']);
      await ctx.loaders.preload({
        users: fields.has('owner') || fields.has('possibleNotifyUserIds'),
        customFields: fields.has('customFields') ? CustomFieldResource.COMPANY : undefined,
      });
    }
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
    const id = company.owner?.id;
    return sooner(ctx.loaders.settled.user(id), () => ctx.loaders.user(id));
  }

  @FieldResolver(() => [CustomFieldValue])
  customFields(@Root() company: Company, @Ctx() ctx: RequestContext) {
    const resource = CustomFieldResource.COMPANY;
    return sooner(ctx.loaders.settled.customFields(resource), () => ctx.loaders.customFields(resource), (defs) => presentCustomFields(defs, company.customFields));
  }

  @FieldResolver(() => [Int], { description: 'Users who can see this company and so may be notified about it' })
  possibleNotifyUserIds(@Root() company: Company, @Ctx() ctx: RequestContext) {
    return sooner(ctx.loaders.settled.users(), () => ctx.loaders.users(), (users) => possibleNotifyUserIds(users.values(), company.owner?.id ?? null));
  }
}
