import { Arg, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { sooner } from '../../context/loaders';
import { selectedFields } from '../../graphql/selection';
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

/**
 * Loads, one batch per kind, the relations a page's selected fields will read, so each row's field
 * resolvers answer synchronously (see Loaders.settled). Unselected relations cost nothing.
 */
async function preloadRelations(ctx: RequestContext, people: readonly Person[], fields: ReadonlySet<string>): Promise<void> {
  const listItemIds: Array<number | undefined> = [];
  if (fields.has('leadStatus')) for (const p of people) listItemIds.push(p.leadStatus?.id);
  if (fields.has('leadSource')) for (const p of people) listItemIds.push(p.leadSource?.id);
  if (fields.has('tags')) for (const p of people) listItemIds.push(...p.tagIds);
  await ctx.loaders.preload({
    users: fields.has('owner') || fields.has('possibleNotifyUserIds'),
    companyIds: fields.has('company') || fields.has('companyName') ? people.map((p) => p.company?.id) : [],
    listItemIds,
    customFields: fields.has('customFields') ? CustomFieldResource.PERSON : undefined,
  });
}

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
    if (info) await preloadRelations(ctx, result.entries, selectedFields(info, ['entries']));
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
    const id = person.owner?.id;
    return sooner(ctx.loaders.settled.user(id), () => ctx.loaders.user(id));
  }

  @FieldResolver(() => CompanyRef, { nullable: true, description: 'Shown whatever the viewer may see of the company itself' })
  company(@Root() person: Person, @Ctx() ctx: RequestContext): CompanyRef | null | Promise<CompanyRef | null> {
    const id = person.company?.id;
    return sooner(ctx.loaders.settled.company(id), () => ctx.loaders.company(id), (c) => (c ? { id: c.id, name: c.name } : null));
  }

  @FieldResolver(() => String, { nullable: true })
  companyName(@Root() person: Person, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    const id = person.company?.id;
    return sooner(ctx.loaders.settled.company(id), () => ctx.loaders.company(id), (c) => c?.name ?? null);
  }

  @FieldResolver(() => ListItem, { nullable: true })
  leadStatus(@Root() person: Person, @Ctx() ctx: RequestContext) {
    const id = person.leadStatus?.id;
    return sooner(ctx.loaders.settled.listItem(id), () => ctx.loaders.listItem(id));
  }

  @FieldResolver(() => ListItem, { nullable: true })
  leadSource(@Root() person: Person, @Ctx() ctx: RequestContext) {
    const id = person.leadSource?.id;
    return sooner(ctx.loaders.settled.listItem(id), () => ctx.loaders.listItem(id));
  }

  @FieldResolver(() => [ListItem], { description: 'Predefined contact tags' })
  tags(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return sooner(ctx.loaders.settled.listItems(person.tagIds), () => ctx.loaders.listItems(person.tagIds));
  }

  @FieldResolver(() => [CustomFieldValue])
  customFields(@Root() person: Person, @Ctx() ctx: RequestContext) {
    const resource = CustomFieldResource.PERSON;
    return sooner(ctx.loaders.settled.customFields(resource), () => ctx.loaders.customFields(resource), (defs) => presentCustomFields(defs, person.customFields));
  }

  @FieldResolver(() => [Int], { description: 'Users who can see this person and so may be notified about notes on them' })
  possibleNotifyUserIds(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return sooner(ctx.loaders.settled.users(), () => ctx.loaders.users(), (users) => possibleNotifyUserIds(users.values(), person.owner?.id ?? null));
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
