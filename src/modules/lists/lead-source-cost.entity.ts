import { Entity, ManyToOne, OneToOne, Property } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity';
import { ListItem } from './list-item.entity';

/**
 * What a lead source costs (DECISIONS: Admin surface: `cost_per_lead_in_cents`,
 * `flat_fee_in_cents`). Lead sources stay list items (people refer to them by that id), so their
 * costs live in a table of their own keyed by the item, instead of widening `list_items` for one
 * list: deleting the source deletes its costs. No row: no costs recorded (both null).
 */
@Entity({ tableName: 'lead_source_costs' })
export class LeadSourceCost {
  @OneToOne(() => ListItem, { primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  listItem!: ListItem;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'integer', nullable: true })
  costPerLeadInCents: number | null = null;

  @Property({ type: 'integer', nullable: true })
  flatFeeInCents: number | null = null;
}
