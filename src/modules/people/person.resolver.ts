import { Arg, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, relationListField, type RelationPreload } from '../../context/relations';
import { CompanyRef, PageInput, PageOf } from '../../graphql/types';
import { Company } from '../companies/company.entity';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { ListItem } from '../lists/list-item.entity';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Person } from './person.entity';
import { PersonCreateOptions, PersonFilter, PersonInput, PersonSort, PersonUpdateOptions } from './person.inputs';
import { peopleOfCompany } from './person.loaders';
import { PEOPLE, PersonService } from './person.service';

@ObjectType('PersonPage')
export class PersonPage extends PageOf(Person) {}

/**
 * What a page's selected fields read, declared once: one batch per source (leadStatus, leadSource
 * and tags share the list-item loader), then each row's field resolvers answer synchronously.
 */
const RELATIONS: readonly RelationPreload<Person>[] = [
  usersPreload('owner', 'possibleNotifyUserIds'),
  { fields: ['company', 'companyName'], source: Company, ids: (p) => p.company?.id },
  { fields: ['leadStatus'], source: ListItem, ids: (p) => p.leadStatus?.id },
  { fields: ['leadSource'], source: ListItem, ids: (p) => p.leadSource?.id },
  { fields: ['tags'], source: ListItem, ids: (p) => p.tagIds },
  customFieldsPreload(CustomFieldResource.PERSON),
];

const companyRef = (c: Company | null): CompanyRef | null => (c ? { id: c.id, name: c.name } : null);
const companyName = (c: Company | null): string | null => c?.name ?? null;

@Resolver()
export class PersonResolver {
  @Query(() => PersonPage, { description: 'People the viewer may see; default order last name, first name' })
  async people(
    @Ctx() ctx: RequestContext,
    @Arg('filter', () => PersonFilter, { nullable: true }) filter?: PersonFilter,
    @Arg('sort', () => [PersonSort], { nullable: true }) sort?: PersonSort[],
    @Arg('page', () => PageInput, { nullable: true }) page?: PageInput,
    @Info() info?: GraphQLResolveInfo,
  ) {
    const result = await new PersonService(ctx).list(filter, sort, page);
    await preloadPage(ctx, RELATIONS, result.entries, info);
    return result;
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
    return relationField(ctx, Users, person.owner?.id);
  }

  @FieldResolver(() => CompanyRef, { nullable: true, description: 'Shown whatever the viewer may see of the company itself' })
  company(@Root() person: Person, @Ctx() ctx: RequestContext): CompanyRef | null | Promise<CompanyRef | null> {
    return relationField(ctx, Company, person.company?.id, companyRef);
  }

  @FieldResolver(() => String, { nullable: true })
  companyName(@Root() person: Person, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    return relationField(ctx, Company, person.company?.id, companyName);
  }

  @FieldResolver(() => ListItem, { nullable: true })
  leadStatus(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, person.leadStatus?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true })
  leadSource(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, person.leadSource?.id);
  }

  @FieldResolver(() => [ListItem], { description: 'Predefined contact tags' })
  tags(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationListField(ctx, ListItem, person.tagIds);
  }

  @FieldResolver(() => [CustomFieldValue])
  customFields(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return customFieldsField(ctx, CustomFieldResource.PERSON, person.customFields);
  }

  @FieldResolver(() => [Int], { description: 'Users who can see this person and so may be notified about notes on them' })
  possibleNotifyUserIds(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return notifyUserIdsField(ctx, PEOPLE.visibility, person);
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
