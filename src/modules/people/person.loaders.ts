import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { hydrate } from '../../db/list-query';
import { normalizePage, toPage, type Page, type PageInput } from '../../graphql/types';
import { scopeOf } from '../common/resource';
import { Person } from './person.entity';
import { DEFAULT_ORDER, PEOPLE } from './person.service';

/**
 * One page of people per company, for many companies in one statement (the Company.people field:
 * v3 §4.6 `associations=people`). Visibility applies: an `own` user sees only their people.
 */
async function pagesByCompany(ctx: RequestContext, companyIds: readonly number[], page: { page: number; perPage: number; offset: number }): Promise<Map<number, Page<Person>>> {
  const where = scopeOf(ctx, PEOPLE).ids('p.company_id', companyIds);
  const raw = await ctx.em.execute<Record<string, unknown>[]>(
    `select * from (select p.*, row_number() over (partition by p.company_id order by ${DEFAULT_ORDER.join(', ')}, p.id asc) as "__rn",
       count(*) over (partition by p.company_id) as "__total" from "people" p where ${where.sql}) x
     where x."__rn" > ? and x."__rn" <= ? order by x.company_id, x."__rn"`,
    [...where.params, page.offset, page.offset + page.perPage],
    'all',
  );
  const rows = new Map<number, Person[]>();
  const totals = new Map<number, number>();
  for (const r of raw) {
    const companyId = Number(r.company_id);
    totals.set(companyId, Number(r.__total));
    delete r.__rn;
    delete r.__total;
    const list = rows.get(companyId) ?? [];
    list.push(hydrate(ctx.em, Person, [r])[0]);
    rows.set(companyId, list);
  }
  const missing = companyIds.filter((id) => !totals.has(id));
  if (page.offset > 0 && missing.length > 0) {
    // A page past the end has no rows to carry the total: count those companies apart.
    const countWhere = scopeOf(ctx, PEOPLE).ids('p.company_id', missing);
    const counts = await ctx.em.execute<Array<{ company_id: number; n: string }>>(
      `select p.company_id, count(*) as n from "people" p where ${countWhere.sql} group by p.company_id`,
      countWhere.params,
      'all',
    );
    for (const c of counts) totals.set(Number(c.company_id), Number(c.n));
  }
  return new Map(companyIds.map((id) => [id, toPage(rows.get(id) ?? [], totals.get(id) ?? 0, page)]));
}

/**
 * Company.people through a per-context batch (one statement for every company asking for the
 * same page), so a list of companies with their people is not one query per company.
 */
export function peopleOfCompany(ctx: RequestContext, companyId: number, pageInput: PageInput | undefined): Promise<Page<Person>> {
  const page = normalizePage(pageInput);
  const loader = ctx.loaders.memo(
    `people-of-company:${page.page}:${page.perPage}`,
    () => new DataLoader(async (ids: readonly number[]) => {
      const pages = await pagesByCompany(ctx, ids, page);
      return ids.map((id) => pages.get(id)!);
    }),
  );
  return loader.load(companyId);
}
