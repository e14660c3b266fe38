import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { SettledLoader } from '../../context/loaders';
import { keysetPagesByParent } from '../../db/keyset';
import { Connection, pagingOf, type NestedArgs } from '../../graphql/connection';
import { fromOf, scopeOf } from '../common/resource';
import { prepareCustomFieldSearch } from '../custom-field-search';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { Person } from '../people/person.entity';
import { PERSON_FIELDS } from '../people/person.fields';
import { PERSON_RECORDS } from '../people/person.visibility';
import { Deal } from './deal.entity';
import { DEAL_FIELDS } from './deal.fields';
import { DEAL_RECORDS } from './deal.visibility';

type Ids = readonly number[];

/** v3 `person_ids`: the people of a deal the viewer may see, by deal: one statement per batch. */
export function peopleIdsOfDeal(ctx: RequestContext): SettledLoader<number[]> {
  return ctx.loaders.memo(
    'deal-people:deal',
    () =>
      new SettledLoader<number[]>(async (keys: Ids) => {
        const found = new Map<number, number[]>(keys.map((k) => [k, []]));
        const where = scopeOf(ctx, PERSON_RECORDS);
        const rows = await ctx.em.execute<Array<{ k: number; v: number }>>(
          `select dp.deal_id as k, dp.person_id as v from "deal_people" dp join ${fromOf(ctx, PERSON_RECORDS)} on p.id = dp.person_id where dp.deal_id = any(?::int[]) and ${where.sql} order by dp.person_id`,
          [`{${keys.join(',')}}`, ...where.params],
          'all',
        );
        for (const row of rows) found.get(Number(row.k))?.push(Number(row.v));
        return keys.map((k) => found.get(k)!);
      }),
  );
}

/** A person's deals as the viewer may see them (v3 `deal_ids`, `deals`, `total_pipeline`, `won_deals_total` on people). */
export interface DealsOfPerson {
  /** Their databaseIds, in id order. */
  readonly ids: number[];
  /** Id and name of each, in id order. */
  readonly refs: Array<{ readonly databaseId: number; readonly name: string }>;
  /** Sum of the open deals' values (probability neither 0 nor 100), numeric text; null when none has a value. */
  readonly pipeline: string | null;
  /** Sum of the won deals' values (probability 100), numeric text; null when none has a value. */
  readonly won: string | null;
}

/**
 * The deals of a person the viewer may see, with their names and the sums of their values: one
 * statement per batch of people, the one `deal_ids` always cost (bench/README: the seventh
 * statement of the people list), so `deals` and the two totals add no statement. Only deals the
 * viewer may see are named or summed: a hidden deal's value never shows through a total. The
 * sums are PostgreSQL's (exact numeric), per person.
 */
export function dealsOfPersonSummary(ctx: RequestContext): SettledLoader<DealsOfPerson> {
  return ctx.loaders.memo(
    'deal-people:person',
    () =>
      new SettledLoader<DealsOfPerson>(async (keys: Ids) => {
        const found = new Map(
          keys.map((k) => [
            k,
            { ids: [] as number[], refs: [] as Array<{ databaseId: number; name: string }>, pipeline: null as string | null, won: null as string | null },
          ]),
        );
        const where = scopeOf(ctx, DEAL_RECORDS);
        const rows = await ctx.em.execute<Array<{ k: number; v: number; name: string; pipeline: string | null; won: string | null }>>(
          `select dp.person_id as k, dp.deal_id as v, d.name,
                sum(d.value) filter (where d.probability is null or d.probability not in (0, 100)) over per_person as pipeline,
                sum(d.value) filter (where d.probability = 100) over per_person as won
           from "deal_people" dp join ${fromOf(ctx, DEAL_RECORDS)} on d.id = dp.deal_id
          where dp.person_id = any(?::int[]) and ${where.sql}
         window per_person as (partition by dp.person_id)
          order by dp.deal_id`,
          [`{${keys.join(',')}}`, ...where.params],
          'all',
        );
        for (const row of rows) {
          const entry = found.get(Number(row.k));
          if (!entry) continue;
          entry.ids.push(Number(row.v));
          entry.refs.push({ databaseId: Number(row.v), name: row.name });
          entry.pipeline = row.pipeline;
          entry.won = row.won;
        }
        return keys.map((k) => found.get(k)!);
      }),
  );
}

type DealFilter = InstanceType<typeof DEAL_FIELDS.Filter>;
type DealOrder = InstanceType<typeof DEAL_FIELDS.Order>;
type PersonFilter = InstanceType<typeof PERSON_FIELDS.Filter>;
type PersonOrder = InstanceType<typeof PERSON_FIELDS.Order>;

/** A page of deals per parent (a company, a person), batched across a page of parents. */
async function dealsBy(
  ctx: RequestContext,
  parent: 'company' | 'person',
  parentId: number,
  nested: NestedArgs<DealFilter, DealOrder>,
): Promise<Connection<Deal>> {
  await prepareCustomFieldSearch(ctx, CustomFieldResource.DEAL, nested.filter);
  const paging = pagingOf(nested.args, 100);
  const order = DEAL_FIELDS.orderKeys(ctx.em, nested.orderBy);
  const condition = DEAL_FIELDS.filterSql(ctx, nested.filter);
  const loader = ctx.loaders.memo(
    `deals-of-${parent}:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null])}`,
    () =>
      new DataLoader(async (ids: Ids) => {
        const where = scopeOf(ctx, DEAL_RECORDS).add(condition.sql, ...condition.params);
        const from = parent === 'company' ? fromOf(ctx, DEAL_RECORDS) : `${fromOf(ctx, DEAL_RECORDS)} join "deal_people" dp on dp.deal_id = d.id`;
        const parentColumn = parent === 'company' ? 'd.company_id' : 'dp.person_id';
        const pages = await keysetPagesByParent(ctx.em, Deal, { from, alias: 'd', where, order, paging, reads: nested.reads, parentColumn }, ids);
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(parentId);
}

export const dealsOfCompany = (ctx: RequestContext, companyId: number, nested: NestedArgs<DealFilter, DealOrder>) => dealsBy(ctx, 'company', companyId, nested);
export const dealsOfPerson = (ctx: RequestContext, personId: number, nested: NestedArgs<DealFilter, DealOrder>) => dealsBy(ctx, 'person', personId, nested);

/**
 * Deal.people: the loader of a page of each deal's people the viewer may see, batched across a page
 * of deals. Everything but the deal is the same for every deal of a page (the field's arguments
 * and selection): the resolver asks for the loader once per field and loads each deal through it.
 * Paging is checked here (a bad one throws); the filter's custom field search is prepared and the
 * order and condition built once per batch.
 */
export function peopleOfDealLoader(ctx: RequestContext, nested: NestedArgs<PersonFilter, PersonOrder>): DataLoader<number, Connection<Person>> {
  const paging = pagingOf(nested.args, 100);
  return ctx.loaders.memo(
    `people-of-deal:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null, nested.readSet?.key ?? null])}`,
    () =>
      new DataLoader(async (ids: Ids) => {
        await prepareCustomFieldSearch(ctx, CustomFieldResource.PERSON, nested.filter);
        const order = PERSON_FIELDS.orderKeys(ctx.em, nested.orderBy);
        const condition = PERSON_FIELDS.filterSql(ctx, nested.filter);
        const where = scopeOf(ctx, PERSON_RECORDS).add(condition.sql, ...condition.params);
        const from = `${fromOf(ctx, PERSON_RECORDS)} join "deal_people" dp on dp.person_id = p.id`;
        const pages = await keysetPagesByParent(
          ctx.em,
          Person,
          { from, alias: 'p', where, order, paging, reads: nested.reads, readSet: nested.readSet, parentColumn: 'dp.deal_id' },
          ids,
        );
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
}
