import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Account } from '../accounts/account.entity';

/**
 * A step of the account's sales pipeline (DECISIONS: Admin surface: `deal_stages`, `percent`
 * 0–100): a list with a field of its own, so a table of its own. A stage at 100 wins a deal and
 * one at 0 loses it; every account starts with Won (100) and Lost (0) besides open stages.
 */
@Entity({ tableName: 'deal_stages' })
@Index({ name: 'deal_stages_account_position', properties: ['account', 'position'] })
// Unique per account ignoring case: an expression index, declared with the migration's statement.
@Unique({
  name: 'deal_stages_account_name_unique',
  expression: `create unique index "deal_stages_account_name_unique" on "deal_stages" ("account_id", lower("name"))`,
})
@ObjectType('DealStage', {
  implements: Node,
  simpleResolvers: true,
  description: "A stage of the account's sales pipeline, with the probability (percent) a deal at that stage is won.",
})
export class DealStage {
  [OptionalProps]?: 'position' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('DealStage', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field({ description: "Name, unique among the account's stages (case-insensitive), at most 100 characters." })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => Int, { description: 'Probability, 0 to 100, that a deal at this stage is won: 100 wins it, 0 loses it, anything between keeps it open.' })
  @Property({ type: 'integer' })
  percent!: number;

  @Field(() => Int, { description: 'Place in the pipeline (0 or more); stages are ordered by position, then databaseId.' })
  @Property({ type: 'integer' })
  position: number = 0;

  @Field({ description: 'When the stage was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the stage was last changed.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
