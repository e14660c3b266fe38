import { ownedRecords, sharedTerm } from '../../context/visibility';
import type { Records } from '../common/resource';
import { Deal } from './deal.entity';

/**
 * Who sees a deal: admins and `all` users every deal of the account; an `own` user the deals they
 * own or that are shared with them (deal_collaborators), the same on every path (v3 §2.5).
 * A module of its own (the entity and the rule only), so that other resources' conditions on
 * deals can read it without loading the deals service.
 */
export const DEAL_RECORDS: Records<Deal> = {
  entity: Deal,
  alias: 'd',
  name: 'Deal',
  visibility: ownedRecords<Deal>(sharedTerm({ table: 'deal_collaborators', recordColumn: 'deal_id', userColumn: 'user_id' })),
};
