import { Arg, Args, Ctx, Field, FieldResolver, Float, Info, Int, ObjectType, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { centsOf, showMoney } from '../../common/money';
import type { RequestContext } from '../../context/context';
import { relationField, relationListField, relationReadSet, type RelationPreload, type RelationReads } from '../../graphql/relations';
import { readSetSite } from '../../graphql/read-set';
import { ConnectionArgs, ConnectionOf, connectionReads, type Connection } from '../../graphql/connection';
import { GraphQLDecimal } from '../../graphql/decimal';
import { selectedFields } from '../../graphql/selection';
import { Currency } from '../accounts/account.resolver';
import { Company } from '../companies/company.entity';
import { COMPANY_NAME_READS, COMPANY_READS } from '../companies/company.service';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { recordResource } from '../common/record-resource';
import { linkable, sharesOf } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { CustomFieldTotal } from '../custom-field-search';
import { customFieldsField, customFieldsPreload } from '../custom-fields/custom-field.loaders';
import { CustomFieldValue } from '../custom-fields/custom-field-values';
import { DealStage } from '../deal-stages/deal-stage.entity';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { PERSON_FIELDS } from '../people/person.fields';
import { PersonConnection } from '../people/person.resolver';
import { PERSON_RECORDS } from '../people/person.visibility';
import { User } from '../users/user.entity';
import { notifyUserIdsField, Users, usersPreload } from '../users/user.loaders';
import { Deal } from './deal.entity';
import { DEAL_FIELDS, type DealInput } from './deal.fields';
import { DealCreateOptions, DealUpdateOptions } from './deal.inputs';
import { dealsOfCompany, dealsOfPerson, dealsOfPersonSummary, peopleIdsOfDeal, peopleOfDealLoader } from './deal.loaders';
import { DealService, type DealTotals as Totals } from './deal.service';
import { DEAL_RECORDS } from './deal.visibility';
import { DEAL_CONDITIONS, DEAL_SORT } from './deal.conditions';
import { savedSearches, SavedSearchType } from '../saved-searches/saved-search.apply';

type DealFilter = InstanceType<typeof DEAL_FIELDS.Filter>;
type DealOrder = InstanceType<typeof DEAL_FIELDS.Order>;

@ObjectType('DealTotals', {
  simpleResolvers: true,
  description: 'Sums over every deal the filter matches, not only the page (v3 `totals=true`); money as decimal strings.',
})
export class DealTotals {
  @Field(() => GraphQLDecimal, { description: "Sum of the deals' values." }) value!: string;
  @Field(() => GraphQLDecimal, { description: 'Sum of the bonuses.' }) bonus!: string;
  @Field(() => GraphQLDecimal, { description: 'Sum of the commissions.' }) commission!: string;
  @Field(() => Int, { description: 'How many deals were summed.' }) count!: number;
  @Field(() => [CustomFieldTotal], {
    description: "Sum of each numeric and currency custom field of deals (v3 `custom_label_<id>` totals), in the fields' order.",
  })
  customFields!: CustomFieldTotal[];
}

/** A deal named on a person (v3 `deals: [{id, name}]` on people): what a person's page reads with their deal ids. */
@ObjectType('DealName', { simpleResolvers: true, description: 'A deal by databaseId and name, as a person lists the deals they take part in.' })
export class DealName {
  @Field(() => Int, { description: "The deal's databaseId." }) databaseId!: number;
  @Field({ description: "The deal's name." }) name!: string;
}

@ObjectType('DealConnection', { description: 'A page of deals, with cursors, and totals over every matching deal when asked for.' })
export class DealConnection extends ConnectionOf(Deal, 'Deal', 'deals') {
  @Field(() => DealTotals, { description: 'Sums over every deal the filter matches (computed only when asked for).' })
  totals!: DealTotals;
}

/** Default and largest page of deal lists (v3 §4.5: per_page default 200). */
export const DEALS_PAGE_SIZE = 200;

/** What a deal's page of people reads of each person: what the operation selects of them. */
const PEOPLE_PAGE_READS = readSetSite(Person, [['nodes'], ['edges', 'node']]);

/**
 * Deal.people's loader per field of an operation: its arguments arrive converted once per field and
 * variables (graphql/lean-resolvers.ts), so the 200 deals of a page find the loader by that object
 * instead of each working out its paging, read set and memo key.
 */
const PEOPLE_LOADERS = new WeakMap<ConnectionArgs, { readonly ctx: RequestContext; readonly loader: ReturnType<typeof peopleOfDealLoader> }>();

/** What primaryContact reads of the person: what is selected, and what `linkable` judges. */
const CONTACT_READS: RelationReads = { selected: true, with: PERSON_RECORDS.visibility.reads };

/** What a page's selected fields read: one batch per source, then each row's fields answer synchronously. */
const RELATIONS: readonly RelationPreload<Deal>[] = [
  usersPreload('owner', 'collaborators', 'possibleNotifyUserIds'),
  { fields: ['company'], source: Company, ids: (d) => d.company?.id, reads: COMPANY_READS },
  { fields: ['companyName'], source: Company, ids: (d) => d.company?.id, reads: COMPANY_NAME_READS },
  { fields: ['primaryContact'], source: Person, ids: (d) => d.primaryContact?.id, reads: CONTACT_READS },
  { fields: ['dealStage'], source: DealStage, ids: (d) => d.stage?.id },
  { fields: ['dealLossReason', 'source'], source: ListItem, ids: (d) => [d.lossReason?.id, d.source?.id] },
  customFieldsPreload(CustomFieldResource.DEAL),
  { fields: ['sharedUserIds', 'isShared', 'collaborators', 'possibleNotifyUserIds'], perRow: (ctx) => sharesOf(ctx, DEAL_RECORDS) },
  { fields: ['personIds'], perRow: (ctx) => peopleIdsOfDeal(ctx) },
];

/** A page of deals whose `totals` are summed in SQL only when the operation reads them. */
const TOTALS_WANTED = new WeakMap<Connection<Deal>, { customFields: boolean }>();

function withTotals(ctx: RequestContext, page: Connection<Deal>, filter: DealFilter | null | undefined, info?: GraphQLResolveInfo): Connection<Deal> {
  // Custom field sums only when selected (they read every matching deal's JSON), in the same statement.
  const wanted = !info || selectedFields(info, ['totals']).has('customFields');
  // A nested page is shared by every appearance of its parent (the loader's cache): set up once,
  // and an appearance asking for custom field sums after the plain ones were read gets them too.
  const state = TOTALS_WANTED.get(page);
  if (state) {
    state.customFields ||= wanted;
    return page;
  }
  const wants = { customFields: wanted };
  TOTALS_WANTED.set(page, wants);
  let plain: Promise<Totals> | undefined;
  let full: Promise<Totals> | undefined;
  const totals = () =>
    wants.customFields ? (full ??= new DealService(ctx).totals(filter, { customFields: true })) : (plain ??= full ?? new DealService(ctx).totals(filter));
  Object.defineProperty(page, 'totals', { get: totals, enumerable: false });
  return page;
}

/**
 * Deals (v3 §2.5, §3, §4.5): the generated list, lookup and mutations, with the service's own list
 * (custom field conditions), create, update (money, stage, people, collaborators, todo template)
 * and delete (its close-date task goes with it), totals over the list, and saved searches; show is
 * the default.
 */
export const DEAL_RESOURCE = recordResource({
  records: DEAL_RECORDS,
  fields: DEAL_FIELDS,
  singular: 'deal',
  plural: 'deals',
  pageSize: DEALS_PAGE_SIZE,
  relations: RELATIONS,
  connection: { type: DealConnection, complete: (ctx, page, filter, info) => withTotals(ctx, page, filter as DealFilter, info) },
  docs: {
    list: 'Deals the viewer may see (their own and those shared with them, or all for admins and `all` users). Default order: newest first.',
    delete: 'Deletes a deal (its people stay). A missing or hidden deal is a NOT_FOUND user error.',
  },
  search: savedSearches({ type: SavedSearchType.DEALS, what: 'deals', conditions: DEAL_CONDITIONS, sort: DEAL_SORT, sortTable: 'deals' }),
  options: {
    create: { type: DealCreateOptions, description: 'A todo template to apply.' },
    update: { type: DealUpdateOptions, description: 'A todo template to apply.' },
    fields: ['todoTemplateId', 'todoTemplateUserId'],
  },
  steps: {
    list: (ctx, filter, orderBy, paging, reads) => new DealService(ctx).list(filter, orderBy as never, paging, reads),
    create: (ctx, input, options?: DealCreateOptions) => new DealService(ctx).create(input as DealInput, options),
    update: (ctx, id, input, options?: DealUpdateOptions) => new DealService(ctx).update(id, input as DealInput, options),
    delete: (ctx, id) => new DealService(ctx).delete(id),
  },
});

/** Every relation through the per-request loaders: a page of deals costs one query per related kind. */
@Resolver(() => Deal)
export class DealFieldsResolver {
  @FieldResolver(() => GraphQLDecimal, {
    nullable: true,
    description: 'The deal\'s value in the account currency, a decimal string with the currency\'s places (e.g. "5000.00").',
  })
  value(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return showMoney(deal.value, ctx.viewer.currency.decimals);
  }

  @FieldResolver(() => Float, { nullable: true, deprecationReason: 'Use value.', description: 'The value in cents (v3 value_in_cents).' })
  valueInCents(@Root() deal: Deal) {
    return centsOf(deal.value);
  }

  @FieldResolver(() => GraphQLDecimal, { nullable: true, description: 'A bonus, in the account currency (decimal string).' })
  bonus(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return showMoney(deal.bonus, ctx.viewer.currency.decimals);
  }

  @FieldResolver(() => GraphQLDecimal, { nullable: true, description: 'The commission, in the account currency (decimal string).' })
  commission(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return showMoney(deal.commission, ctx.viewer.currency.decimals);
  }

  @FieldResolver(() => GraphQLDecimal, { nullable: true, description: 'The commission rate, a percentage (decimal string, e.g. "12.5").' })
  commissionRate(@Root() deal: Deal) {
    return deal.commissionRate === null ? null : deal.commissionRate.replace(/\.?0+$/, '');
  }

  @FieldResolver(() => Currency, { description: 'The account currency, which every amount of the deal is in.' })
  currency(@Ctx() ctx: RequestContext): Currency {
    return ctx.viewer.currency;
  }

  @FieldResolver(() => String, { description: 'ISO 4217 code of the account currency.' })
  currencyCode(@Ctx() ctx: RequestContext): string {
    return ctx.viewer.currency.code;
  }

  @FieldResolver(() => User, { nullable: true, description: 'The user responsible for this deal.' })
  owner(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, deal.owner?.id);
  }

  @FieldResolver(() => Company, {
    nullable: true,
    description: "The deal's company; null when none, or when the viewer may not see it (companyName and companyId still show it).",
  })
  company(@Root() deal: Deal, @Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo) {
    return relationField(
      ctx,
      Company,
      deal.company?.id,
      (c) => (c && linkable(ctx, COMPANY_RECORDS, c) ? c : null),
      relationReadSet(ctx, Company, COMPANY_READS, info),
    );
  }

  @FieldResolver(() => String, { nullable: true, description: "The name of the deal's company, shown whatever the viewer may see of the company itself." })
  companyName(@Root() deal: Deal, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    return relationField(ctx, Company, deal.company?.id, (c) => c?.name ?? null, relationReadSet(ctx, Company, COMPANY_NAME_READS));
  }

  @FieldResolver(() => Person, { nullable: true, description: 'The main person of the deal; null when none or when the viewer may not see them.' })
  primaryContact(@Root() deal: Deal, @Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo) {
    return relationField(
      ctx,
      Person,
      deal.primaryContact?.id,
      (p) => (p && linkable(ctx, PERSON_RECORDS, p) ? p : null),
      relationReadSet(ctx, Person, CONTACT_READS, info),
    );
  }

  @FieldResolver(() => DealStage, { nullable: true, description: "The deal's stage of the pipeline." })
  dealStage(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return relationField(ctx, DealStage, deal.stage?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: 'Why the deal was lost (an item of the deal loss reasons list).' })
  dealLossReason(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, deal.lossReason?.id);
  }

  @FieldResolver(() => ListItem, { nullable: true, description: 'Where the deal came from (an item of the lead sources list).' })
  source(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return relationField(ctx, ListItem, deal.source?.id);
  }

  @FieldResolver(() => [Int], { description: 'databaseIds of the users the deal is shared with.' })
  sharedUserIds(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return sharesOf(ctx, DEAL_RECORDS).answer(deal.id);
  }

  @FieldResolver(() => Boolean, { description: 'Whether the deal is shared with any user.' })
  isShared(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return sharesOf(ctx, DEAL_RECORDS).answer(deal.id, (users) => users.length > 0);
  }

  @FieldResolver(() => [User], { description: 'The users the deal is shared with (they see it as its owner does).' })
  collaborators(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return sharesOf(ctx, DEAL_RECORDS).answer(deal.id, (ids) => relationListField(ctx, Users, ids));
  }

  @FieldResolver(() => [Int], { description: 'databaseIds of the people taking part in the deal whom the viewer may see.' })
  personIds(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return peopleIdsOfDeal(ctx).answer(deal.id);
  }

  @FieldResolver(() => PersonConnection, {
    description: 'The people taking part in the deal whom the viewer may see. Default order: last name, then first name.',
  })
  people(
    @Root() deal: Deal,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => PERSON_FIELDS.Filter, { nullable: true, description: 'Which of its people; all when absent.' })
    filter?: InstanceType<typeof PERSON_FIELDS.Filter>,
    @Arg('orderBy', () => [PERSON_FIELDS.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof PERSON_FIELDS.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ) {
    let found = PEOPLE_LOADERS.get(args);
    if (!found || found.ctx !== ctx) {
      const readSet = info ? PEOPLE_PAGE_READS(ctx, info) : null;
      found = { ctx, loader: peopleOfDealLoader(ctx, { args, filter, orderBy, reads: connectionReads(info), readSet }) };
      PEOPLE_LOADERS.set(args, found);
    }
    return found.loader.load(deal.id);
  }

  @FieldResolver(() => [CustomFieldValue], { description: "Every custom field defined for deals, with this deal's value (null when unset)." })
  customFields(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return customFieldsField(ctx, CustomFieldResource.DEAL, deal.customFields);
  }

  @FieldResolver(() => [Int], {
    description: 'databaseIds of the users who can see this deal (admins, `all` users, its owner and collaborators), and so may be notified about it.',
  })
  possibleNotifyUserIds(@Root() deal: Deal, @Ctx() ctx: RequestContext) {
    return sharesOf(ctx, DEAL_RECORDS).answer(deal.id, (shared) => notifyUserIdsField(ctx, DEAL_RECORDS.visibility, deal, shared));
  }
}

/** Deals of a company and of a person as connections, batched across a page of parents. */
@Resolver(() => Company)
export class CompanyDealsResolver {
  @FieldResolver(() => DealConnection, { description: 'Deals of this company the viewer may see. Default order: newest first.' })
  deals(
    @Root() company: Company,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => DEAL_FIELDS.Filter, { nullable: true, description: 'Which of its deals; all when absent.' }) filter?: DealFilter,
    @Arg('orderBy', () => [DEAL_FIELDS.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: DealOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return dealsOfCompany(ctx, company.id, { args, filter, orderBy, reads: connectionReads(info) }).then((page) =>
      withTotals(ctx, page, { and: [filter ?? {}, { companyId: { eq: company.id } }] } as DealFilter, info),
    );
  }
}

@Resolver(() => Person)
export class PersonDealsResolver {
  @FieldResolver(() => DealConnection, { description: 'Deals this person takes part in that the viewer may see. Default order: newest first.' })
  deals(
    @Root() person: Person,
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => DEAL_FIELDS.Filter, { nullable: true, description: 'Which of their deals; all when absent.' }) filter?: DealFilter,
    @Arg('orderBy', () => [DEAL_FIELDS.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: DealOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return dealsOfPerson(ctx, person.id, { args, filter, orderBy, reads: connectionReads(info) }).then((page) =>
      withTotals(ctx, page, { and: [filter ?? {}, { personIds: { eq: person.id } }] } as DealFilter, info),
    );
  }

  @FieldResolver(() => [Int], { description: 'databaseIds of the deals this person takes part in that the viewer may see.' })
  dealIds(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return dealsOfPersonSummary(ctx).answer(person.id, (d) => d.ids);
  }

  // dealNames and the totals come from dealIds' statement (deal.loaders.ts): a page of people pays nothing more for them.
  @FieldResolver(() => [DealName], {
    description: 'The deals this person takes part in that the viewer may see, as databaseId and name, in databaseId order (v3 `deals` on people).',
  })
  dealNames(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return dealsOfPersonSummary(ctx).answer(person.id, (d) => d.refs);
  }

  @FieldResolver(() => GraphQLDecimal, {
    description:
      'Sum of the values of this person\'s open deals (probability neither 0 nor 100) that the viewer may see, in the account currency (decimal string; "0.00" when none). v3 `total_pipeline`.',
  })
  totalPipeline(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return dealsOfPersonSummary(ctx).answer(person.id, (d) => showMoney(d.pipeline ?? '0', ctx.viewer.currency.decimals));
  }

  @FieldResolver(() => GraphQLDecimal, {
    description:
      'Sum of the values of this person\'s won deals (probability 100) that the viewer may see, in the account currency (decimal string; "0.00" when none). v3 `won_deals_total`.',
  })
  wonDealsTotal(@Root() person: Person, @Ctx() ctx: RequestContext) {
    return dealsOfPersonSummary(ctx).answer(person.id, (d) => showMoney(d.won ?? '0', ctx.viewer.currency.decimals));
  }
}
