import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, relationListField, relationReadSet, type RelationPreload } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload, withOptions } from '../../graphql/payload';
import { Company } from '../companies/company.entity';
import { COMPANY_NAME_READS, COMPANY_READS } from '../companies/company.service';
import { COMPANIES } from '../companies/company.visibility';
import { findManyVisible, linkable } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { ListItem } from '../lists/list-item.entity';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Person } from './person.entity';
import { PERSON, type PersonInput } from './person.fields';
import { PersonCreateOptions, PersonUpdateOptions } from './person.inputs';
import { peopleOfCompany } from './person.loaders';
import { PersonService } from './person.service';
import { PEOPLE } from './person.visibility';
import { SavedSearchType, SEARCH_ID_DOC, withSavedSearch } from '../saved-searches/saved-search.apply';

@ObjectType('PersonConnection', { description: 'A page of people, with cursors.' })
export class PersonConnection extends ConnectionOf(Person, 'Person', 'people') {}

@ObjectType('CreatePersonPayload', { description: 'The result of createPerson.' })
class CreatePersonPayload extends RecordPayload(Person, 'person', 'The created person') {}

@ObjectType('UpdatePersonPayload', { description: 'The result of updatePerson.' })
class UpdatePersonPayload extends RecordPayload(Person, 'person', 'The person as changed') {}

@ObjectType('DeletePersonPayload', { description: 'The result of deletePerson.' })
class DeletePersonPayload extends DeletePayload {}

/** Default page size of people lists. */
export const PEOPLE_PAGE_SIZE = 100;

registerNode({ name: 'Person', entity: Person, find: (ctx, ids) => findManyVisible(ctx, PEOPLE, ids) });

/**
 * What a page's selected fields read, declared once: one batch per source (leadStatus, leadSource
 * and tags share the list-item loader), then each row's field resolvers answer synchronously.
 */
const RELATIONS: readonly RelationPreload<Person>[] = [
  usersPreload('owner', 'possibleNotifyUserIds'),
  { fields: ['company'], source: Company, ids: (p) => p.company?.id, reads: COMPANY_READS },
  { fields: ['companyName'], source: Company, ids: (p) => p.company?.id, reads: COMPANY_NAME_READS },
  { fields: ['leadStatus'], source: ListItem, ids: (p) => p.leadStatus?.id },
  { fields: ['leadSource'], source: ListItem, ids: (p) => p.leadSource?.id },
  { fields: ['tags'], source: ListItem, ids: (p) => p.tagIds },
  customFieldsPreload(CustomFieldResource.PERSON),
];

const OPTION_FIELDS = withOptions(['todoTemplateId', 'todoTemplateUserId']);

@Resolver()
export class PersonResolver {
  @Query(() => PersonConnection, { description: 'People the viewer may see. Default order: last name, then first name.' })
  async people(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => PERSON.Filter, { nullable: true, description: 'Which people; all of them when absent.' }) filter?: InstanceType<typeof PERSON.Filter>,
    @Arg('orderBy', () => [PERSON.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof PERSON.Order>>,
    @Info() info?: GraphQLResolveInfo,
    @Arg('searchId', () => Int, { nullable: true, description: SEARCH_ID_DOC }) searchId?: number | null,
  ): Promise<Connection<Person>> {
    const search = await withSavedSearch(ctx, SavedSearchType.PEOPLE, searchId, filter, orderBy, info);
    const result = await new PersonService(ctx).list(search.filter, search.orderBy, pagingOf(args, PEOPLE_PAGE_SIZE), connectionReads(info));
    await preloadPage(ctx, RELATIONS, result.nodes, info);
    return result;
  }

  @Query(() => Person, { nullable: true, description: 'One person by databaseId; null when it does not exist or the viewer may not see it.' })
  person(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The person's databaseId." }) id: number) {
    return new PersonService(ctx).get(id);
  }

  @Mutation(() => CreatePersonPayload, { description: 'Creates a person. Problems with the input come back as userErrors, and nothing is created.' })
  createPerson(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => PERSON.CreateInput, { description: 'The new person.' }) input: PersonInput,
    @Arg('options', () => PersonCreateOptions, { nullable: true, description: 'Duplicate check and notification.' }) options?: PersonCreateOptions,
  ) {
    return recordPayload('person', () => new PersonService(ctx).create(input, options), OPTION_FIELDS);
  }

  @Mutation(() => UpdatePersonPayload, { description: 'Changes a person: only the fields given. A missing or hidden person is a NOT_FOUND user error.' })
  updatePerson(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The person's databaseId." }) id: number,
    @Arg('input', () => PERSON.UpdateInput, { description: 'The changes.' }) input: PersonInput,
    @Arg('options', () => PersonUpdateOptions, { nullable: true, description: 'Notification of a new owner.' }) options?: PersonUpdateOptions,
  ) {
    return recordPayload('person', () => new PersonService(ctx).update(id, input, options), OPTION_FIELDS);
  }

  @Mutation(() => DeletePersonPayload, { description: 'Deletes a person. A missing or hidden person is a NOT_FOUND user error.' })
  deletePerson(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The person's databaseId." }) id: number) {
    return deletePayload('Person', () => new PersonService(ctx).delete(id));
  }
}

/** Every relation through the per-request loaders: a page of people costs one query per related kind. */
@Resolver(() => Person)
export class PersonFieldsResolver {
  @FieldResolver(() => User, { nullable: true, description: 'The user responsible for this person.' })
  owner(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, person.owner?.id);
  }

  @FieldResolver(() => Company, {
    nullable: true,
    description: "The person's company; null when none, or when the viewer may not see it (companyName and companyId still show it).",
  })
  company(@Root() person: Person, @Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo) {
    return relationField(
      ctx,
      Company,
      person.company?.id,
      (c) => (c && linkable(ctx, COMPANIES, c) ? c : null),
      relationReadSet(ctx, Company, COMPANY_READS, info),
    );
  }

  @FieldResolver(() => String, { nullable: true, description: "The name of the person's company, shown whatever the viewer may see of the company itself." })
  companyName(@Root() person: Person, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    return relationField(ctx, Company, person.company?.id, (c) => c?.name ?? null, relationReadSet(ctx, Company, COMPANY_NAME_READS));
  }

  @FieldResolver(() => ListItem, { nullable: true, description: 'The lead status (an item of the lead statuses list).' })
  leadStatus(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, person.leadStatus?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: 'Where the lead came from (an item of the lead sources list).' })
  leadSource(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, person.leadSource?.id);
  }

  @FieldResolver(() => [ListItem], { description: 'Contact tags (items of the contact tags list), in the order given.' })
  tags(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return relationListField(ctx, ListItem, person.tagIds);
  }

  @FieldResolver(() => [CustomFieldValue], { description: "Every custom field defined for people, with this person's value (null when unset)." })
  customFields(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return customFieldsField(ctx, CustomFieldResource.PERSON, person.customFields);
  }

  @FieldResolver(() => [Int], { description: 'databaseIds of the users who can see this person, and so may be notified about notes on them.' })
  possibleNotifyUserIds(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return notifyUserIdsField(ctx, PEOPLE.visibility, person);
  }

  // dealIds and deals: the deals module resolves them (PersonDealsResolver).
}

/** A company's people as a connection, batched across the companies of a page. */
@Resolver(() => Company)
export class CompanyPeopleResolver {
  @FieldResolver(() => PersonConnection, { description: 'People of this company the viewer may see. Default order: last name, then first name.' })
  people(
    @Root() company: Company,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => PERSON.Filter, { nullable: true, description: 'Which of its people; all when absent.' }) filter?: InstanceType<typeof PERSON.Filter>,
    @Arg('orderBy', () => [PERSON.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof PERSON.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ) {
    return peopleOfCompany(ctx, company.id, { args, filter, orderBy, reads: connectionReads(info) });
  }
}
