import type { EntityManager } from '@mikro-orm/postgresql';
import type { Account } from '../accounts/account.entity';
import { DealStage } from './deal-stage.entity';

/**
 * The pipeline every new account starts with (DECISIONS: Admin surface: Won 100 and Lost 0 plus
 * open stages), in position order. Migration 20261125000001 gives existing accounts the same.
 */
export const DEFAULT_DEAL_STAGES: ReadonlyArray<{ readonly name: string; readonly percent: number }> = [
  { name: 'Incoming', percent: 10 },
  { name: 'Qualified', percent: 25 },
  { name: 'Proposal', percent: 50 },
  { name: 'Negotiation', percent: 75 },
  { name: 'Won', percent: 100 },
  { name: 'Lost', percent: 0 },
];

/** Persists the default stages of a new account (flushed with it, in its transaction). */
export function seedDealStages(em: EntityManager, account: Account): void {
  DEFAULT_DEAL_STAGES.forEach((stage, position) => em.persist(em.create(DealStage, { account, name: stage.name, percent: stage.percent, position })));
}
