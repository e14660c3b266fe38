import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';

/** The costs of one lead source; both null when none are recorded. */
export interface LeadSourceCosts {
  readonly costPerLeadInCents: number | null;
  readonly flatFeeInCents: number | null;
}

const NONE: LeadSourceCosts = { costPerLeadInCents: null, flatFeeInCents: null };

/** Costs of lead sources by list item id, one statement per batch (a page of lead sources), within the account. */
export function leadSourceCosts(ctx: RequestContext): DataLoader<number, LeadSourceCosts> {
  return ctx.loaders.memo(
    'lead-source-costs',
    () =>
      new DataLoader<number, LeadSourceCosts>(async (ids) => {
        // em.execute, not the bare connection: inside a mutation the read sees its transaction.
        const rows = await ctx.em.execute<Array<{ list_item_id: number; cost_per_lead_in_cents: number | null; flat_fee_in_cents: number | null }>>(
          'select list_item_id, cost_per_lead_in_cents, flat_fee_in_cents from "lead_source_costs" where account_id = ? and list_item_id = any(?::int[])',
          [ctx.viewer.accountId, `{${ids.map((id) => Math.trunc(id)).join(',')}}`],
          'all',
        );
        const byId = new Map(rows.map((r) => [Number(r.list_item_id), { costPerLeadInCents: r.cost_per_lead_in_cents, flatFeeInCents: r.flat_fee_in_cents }]));
        return ids.map((id) => byId.get(id) ?? NONE);
      }),
  );
}
