import { Entity, OptionalProps, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { ADMIN_LISTS, LIST_KINDS, listsInProse, memberOf, type AdminListDeclaration } from './admin-lists';

/**
 * The account's administrative lists that are a name in an order (DECISIONS: Admin surface) share
 * one table: a new list of that shape is a new kind, not a new table, and every convenience object
 * of them loads through one batched query. A list with fields of its own gets a model of its own
 * instead (deal stages and their percent, todo templates and their items), or, where the items
 * must stay list items because people refer to them, a table keyed by the item (lead source costs,
 * LeadSourceCost): one table holding every list would be a sparse union each new field widens.
 * Lead statuses and calendar entry priorities keep their colour here (the one extra column, kept
 * from the start). The lists are declared in admin-lists.ts: ListKind, its descriptions and the
 * lists that keep a colour follow from there.
 */
export const ListKind = LIST_KINDS;
export type ListKind = (typeof ListKind)[keyof typeof ListKind];
registerEnumType(ListKind, {
  name: 'ListKind',
  description: 'Which administrative list an item belongs to.',
  valuesConfig: Object.fromEntries(ADMIN_LISTS.map((l) => [memberOf(l.kind), { description: l.doc }])),
});

/** Longest colour kept (a 32-bit colour as a decimal number is 10 digits, a CSS colour name 20 characters). */
export const HEX_COLOR_MAX = 32;

const DECLARED: readonly AdminListDeclaration[] = ADMIN_LISTS;
const COLOURED = DECLARED.filter((l) => l.coloured);

/** The lists whose items carry a colour, declared `coloured` (v3: lead statuses, §2.10; calendar entry priorities, as recorded). */
export const COLOURED_LISTS: ReadonlySet<ListKind> = new Set(COLOURED.map((l) => l.kind as ListKind));

/** "Lead statuses and calendar entry priorities", in hexColor's description. */
const COLOURED_PROSE = listsInProse(COLOURED, ' and ').replace(/^./, (c) => c.toUpperCase());

@Entity({ tableName: 'list_items' })
@Index({ properties: ['account', 'kind', 'position'] })
// Unique per list ignoring case: an expression index, declared with the migration's statement.
@Unique({
  name: 'list_items_account_kind_name_unique',
  expression: `create unique index "list_items_account_kind_name_unique" on "list_items" ("account_id", "kind", lower("name"))`,
})
@ObjectType('ListItem', {
  implements: Node,
  simpleResolvers: true,
  description: `An entry of one of the account's administrative lists that are a name in an order (${listsInProse(DECLARED)}).`,
})
export class ListItem {
  [OptionalProps]?: 'hexColor' | 'position' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId' | 'accountId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('ListItem', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field(() => ListKind, { description: 'The list it belongs to.' })
  @Enum({ items: () => ListKind })
  kind!: ListKind;

  @Field({ description: 'Name, unique in its list (case-insensitive), at most 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  /**
   * Stored as given, not normalised: the real v3 service kept `"0"` (the official client sends the
   * number 0), `"fff"` and `"C73408"` (issue 22 §1, recorded), and clients read back what they wrote.
   */
  @Field(() => String, {
    nullable: true,
    description: `${COLOURED_PROSE} only: a colour as the client wrote it (e.g. #1a2b3c, C73408, fff), at most ${HEX_COLOR_MAX} characters; null when unset and for other lists.`,
  })
  @Property({ type: 'string', length: HEX_COLOR_MAX, nullable: true })
  hexColor: string | null = null;

  @Field(() => Int, { description: "databaseId of the account the item belongs to (the viewer's)." })
  @Extensions({ [READS]: ['account'] })
  get accountId(): number {
    return this.account.id;
  }

  @Field(() => Int, { description: 'Place in the list (0 or more); lists are ordered by position, then databaseId.' })
  @Property({ type: 'integer' })
  position: number = 0;

  @Field({ description: 'When the item was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the item was last changed.' })
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
