import { Arg, Args, Ctx, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { relationField, relationListField, relationReadSet, type RelationPreload } from '../../graphql/relations';
import { ConnectionArgs, connectionReads } from '../../graphql/connection';
import { Company } from '../companies/company.entity';
import { COMPANY_NAME_READS, COMPANY_READS } from '../companies/company.service';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { recordResource } from '../common/record-resource';
import { linkable } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { ListItem } from '../lists/list-item.entity';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Person } from './person.entity';
import { PERSON_FIELDS, type PersonInput } from './person.fields';
import { PersonCreateOptions, PersonUpdateOptions } from './person.inputs';
import { peopleOfCompany } from './person.loaders';
import { PersonService } from './person.service';
import { PERSON_RECORDS } from './person.visibility';
import { PERSON_CONDITIONS, PERSON_SORT } from './person.conditions';
import { savedSearches, SavedSearchType } from '../saved-searches/saved-search.apply';

/** Default page size of people lists. */
export const PEOPLE_PAGE_SIZE = 100;

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

/**
 * People (v3 §2.4, §4.4): the generated list, lookup and mutations, with the service's own list
 * (custom field conditions), create and update (names, company, owner, lists, deals, duplicate
 * check, todo template, assignment mail) and saved searches; show and delete are the defaults.
 */
export const PERSON_RESOURCE = recordResource({
  records: PERSON_RECORDS,
  fields: PERSON_FIELDS,
  singular: 'person',
  plural: 'people',
  pageSize: PEOPLE_PAGE_SIZE,
  relations: RELATIONS,
  docs: { list: 'People the viewer may see. Default order: last name, then first name.' },
  search: savedSearches({ type: SavedSearchType.PEOPLE, what: 'people', conditions: PERSON_CONDITIONS, sort: PERSON_SORT, sortTable: 'people' }),
  options: {
    create: { type: PersonCreateOptions, description: 'Duplicate check and notification.' },
    update: { type: PersonUpdateOptions, description: 'Notification of a new owner.' },
    fields: ['todoTemplateId', 'todoTemplateUserId'],
  },
  steps: {
    list: (ctx, filter, orderBy, paging, reads) => new PersonService(ctx).list(filter, orderBy as never, paging, reads),
    create: (ctx, input, options?: PersonCreateOptions) => new PersonService(ctx).create(input as PersonInput, options),
    update: (ctx, id, input, options?: PersonUpdateOptions) => new PersonService(ctx).update(id, input as PersonInput, options),
  },
});

/** `PersonConnection`, for the people of a company and of a deal. */
export const PersonConnection = PERSON_RESOURCE.connection;

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
      (c) => (c && linkable(ctx, COMPANY_RECORDS, c) ? c : null),
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
    return notifyUserIdsField(ctx, PERSON_RECORDS.visibility, person);
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
    @Arg('filter', () => PERSON_FIELDS.Filter, { nullable: true, description: 'Which of its people; all when absent.' })
    filter?: InstanceType<typeof PERSON_FIELDS.Filter>,
    @Arg('orderBy', () => [PERSON_FIELDS.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof PERSON_FIELDS.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ) {
    return peopleOfCompany(ctx, company.id, { args, filter, orderBy, reads: connectionReads(info) });
  }
}
