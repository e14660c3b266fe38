import type { RequestContext } from '../../context/context';
import { relationField } from '../../graphql/relations';
import { Visibility } from '../../context/viewer';
import type { Seer, VisibilityRule, VisibilityTerm } from '../../context/visibility';
import { Where } from '../../db/sql';
import { Company } from '../companies/company.entity';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { Person } from '../people/person.entity';
import { PERSON_RECORDS } from '../people/person.visibility';
import { linkable, sharesOf } from './resource';

/**
 * The records an activity (a note, a document, a calendar entry) may be linked to, each visible
 * under its own rule. The rules come from the `*.visibility.ts` files, which import their entity
 * and nothing of a service: a deal's write reaches the calendar (its close-date task, todo
 * templates) and so this file, but this file never reaches back to a deal's service.
 */
const LINKS = [
  { column: 'deal_id', table: 'deals', def: DEAL_RECORDS },
  { column: 'person_id', table: 'people', def: PERSON_RECORDS },
  { column: 'company_id', table: 'companies', def: COMPANY_RECORDS },
] as const;

/**
 * Visible through a linked record: an `exists` per link column (`deal_id`, `person_id`,
 * `company_id` of the row) under that record's own rule (a deal's owner or collaborators, a
 * person's or company's owner). Decided in SQL only, never in memory (the term has no predicate of
 * its own to drift from it): single records are judged by the same SQL. `prefix` keeps the inner
 * aliases apart from the outer query's; `what` names the resource in the error of a misuse.
 */
export function linkedRecordsTerm<T>(prefix: string, what: string): VisibilityTerm<T> {
  return {
    sql: (alias, userId) => {
      const seer: Seer = { userId, isAdmin: false, visibility: Visibility.OWN };
      const sql: string[] = [];
      const params: unknown[] = [];
      for (const link of LINKS) {
        const inner = (link.def.visibility as VisibilityRule<object>).restrict(new Where(), `${prefix}${link.table[0]}`, seer);
        sql.push(
          `exists (select 1 from "${link.table}" ${prefix}${link.table[0]} where ${prefix}${link.table[0]}.id = ${alias}.${link.column} and ${inner.sql})`,
        );
        params.push(...inner.params);
      }
      return { sql: sql.join(' or '), params };
    },
    holds: () => {
      throw new Error(`${what} visibility is decided in SQL, not in memory`);
    },
  };
}

/**
 * The deal an activity is linked to, as its `deal` field shows it: null when the viewer may not
 * see it (`dealId` still names it). Synchronous once the page's preload settled the deal and its shares.
 */
export function linkedDeal(ctx: RequestContext, id: number | undefined): Deal | null | Promise<Deal | null> {
  if (id == null) return null;
  const loader = ctx.loaders.byId(Deal);
  const shares = sharesOf(ctx, DEAL_RECORDS);
  const deal = loader.settled(id);
  const shared = shares.settled(id);
  if (deal !== undefined && shared !== undefined) return deal && DEAL_RECORDS.visibility.canSee(ctx.viewer, deal, shared) ? deal : null;
  return Promise.all([loader.load(id), shares.load(id)]).then(([d, s]) => (d && DEAL_RECORDS.visibility.canSee(ctx.viewer, d, s) ? d : null));
}

/** The person an activity is linked to, as its `person` field shows it: null when the viewer may not see them. */
export const linkedPerson = (ctx: RequestContext, id: number | undefined) =>
  relationField(ctx, Person, id, (p) => (p && linkable(ctx, PERSON_RECORDS, p) ? p : null));

/** The company an activity is linked to, as its `company` field shows it: null when the viewer may not see it. */
export const linkedCompany = (ctx: RequestContext, id: number | undefined) =>
  relationField(ctx, Company, id, (c) => (c && linkable(ctx, COMPANY_RECORDS, c) ? c : null));
