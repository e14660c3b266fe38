import { Arg, Ctx, FieldResolver, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../graphql/context';
import { CompanyRef, PageInput, PageOf } from '../../graphql/types';
import { Company } from '../companies/company.entity';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { CustomFieldValue, presentCustomFields } from '../custom-fields/custom-field-values';
import { ListItem } from '../lists/list-item.entity';
import { User } from '../users/user.entity';
import { possibleNotifyUserIds } from '../users/visibility';
import { Person } from './person.entity';
import { PersonCreateOptions, PersonFilter, PersonInput, PersonSort, PersonUpdateOptions } from './person.inputs';
import { peopleOfCompany, PersonService } from './person.service';

@ObjectType('PersonPage')
export class PersonPage extends PageOf(Person) {}

@Resolver()
export class PersonResolver {
  @Query(() => PersonPage, { description: 'People the viewer may see; default order last name, first name' })
  people(
    @Ctx() ctx: RequestContext,
    @Arg('filter', () => PersonFilter, { nullable: true }) filter?: PersonFilter,
    @Arg('sort', () => [PersonSort], { nullable: true }) sort?: PersonSort[],
    @Arg('page', () => PageInput, { nullable: true }) page?: PageInput,
  ) {
    return new PersonService(ctx).list(filter, sort, page);
  }

  @Query(() => Person)
  person(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return new PersonService(ctx).get(id);
  }

  @Mutation(() => Person)
  createPerson(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => PersonInput) input: PersonInput,
    @Arg('options', () => PersonCreateOptions, { nullable: true }) options?: PersonCreateOptions,
  ) {
    return new PersonService(ctx).create(input, options);
  }

  @Mutation(() => Person)
  updatePerson(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => PersonInput) input: PersonInput,
    @Arg('options', () => PersonUpdateOptions, { nullable: true }) options?: PersonUpdateOptions,
  ) {
    return new PersonService(ctx).update(id, input, options);
  }

  @Mutation(() => Int, { description: 'Returns the id of the deleted person' })
  deletePerson(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return new PersonService(ctx).delete(id);
  }
}

/** Every relation through the per-request loaders: a page of people costs one query per related kind. */
@Resolver(() => Person)
export class PersonFieldsResolver {
  @FieldResolver(() => User, { nullable: true })
  owner(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return ctx.loaders.user(person.owner?.id);
  }

  @FieldResolver(() => CompanyRef, { nullable: true, description: 'Shown whatever the viewer may see of the company itself' })
  async company(@Root() person: Person, @Ctx() ctx: RequestContext): Promise<CompanyRef | null> {
    const company = await ctx.loaders.company(person.company?.id);
    return company ? { id: company.id, name: company.name } : null;
  }

  @FieldResolver(() => String, { nullable: true })
  async companyName(@Root() person: Person, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await ctx.loaders.company(person.company?.id))?.name ?? null;
  }

  @FieldResolver(() => ListItem, { nullable: true })
  leadStatus(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return ctx.loaders.listItem(person.leadStatus?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true })
  leadSource(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return ctx.loaders.listItem(person.leadSource?.id);
  }

  @FieldResolver(() => [ListItem], { description: 'Predefined contact tags' })
  tags(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return ctx.loaders.listItems(person.tagIds);
  }

  @FieldResolver(() => [CustomFieldValue])
  async customFields(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return presentCustomFields(await ctx.loaders.customFields(CustomFieldResource.PERSON), person.customFields);
  }

  @FieldResolver(() => [Int], { description: 'Users who can see this person and so may be notified about notes on them' })
  async possibleNotifyUserIds(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return possibleNotifyUserIds((await ctx.loaders.users()).values(), person.owner?.id ?? null);
  }

  @FieldResolver(() => [Int], { description: 'Deals of this person. Always empty until deals exist (a later issue).' })
  dealIds(): number[] {
    return [];
  }
}

/** v3 §4.6 `GET /companies/:id.json?associations=people`: a company's people, visibility applied. */
@Resolver(() => Company)
export class CompanyPeopleResolver {
  @FieldResolver(() => PersonPage, { description: 'People of this company the viewer may see' })
  people(@Root() company: Company, @Ctx() ctx: RequestContext, @Arg('page', () => PageInput, { nullable: true }) page?: PageInput) {
    return peopleOfCompany(ctx, company.id, page);
  }
}
