import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { User } from '../users/user.entity';

/** The list a saved search is for (DECISIONS: Admin surface: `search_type`); values are the v3 names. */
export enum SavedSearchType {
  DEALS = 'deals',
  PEOPLE = 'people',
  COMPANIES = 'companies',
  NOTES = 'notes',
  CALENDAR_ENTRIES = 'calendar_entries',
}
registerEnumType(SavedSearchType, {
  name: 'SavedSearchType',
  description: 'The list a saved search is for (v3 `search_type`).',
  valuesConfig: {
    DEALS: { description: 'Deals (`deals(searchId:)`, v3 `/deals.json?search_id=`).' },
    PEOPLE: { description: 'People (`people(searchId:)`, v3 `/people.json?search_id=`).' },
    COMPANIES: { description: 'Companies (`companies(searchId:)`, v3 `/companies.json?search_id=`).' },
    NOTES: { description: 'Notes (run by the notes list and v3 `/notes.json?search_id=`).' },
    CALENDAR_ENTRIES: { description: 'Calendar entries: stored and validated now; run when the calendar list arrives.' },
  },
});

/**
 * A user's saved search (DECISIONS: Admin surface: saved searches): v3 conditions and a v3 sort for
 * one kind of list, private to its owner unless shared with the account. `query` maps v3 condition
 * names to arrays of values (`{"company_name": ["Acme"]}`), checked when saved with the list's own
 * condition table (src/kit/v3/conditions.ts), so it runs as the list would run `conditions[...]`.
 */
@Entity({ tableName: 'saved_searches' })
@Index({ name: 'saved_searches_account_user', properties: ['account', 'user'] })
@Index({ name: 'saved_searches_account_type', properties: ['account', 'searchType'] })
@ObjectType('SavedSearch', {
  implements: Node,
  simpleResolvers: true,
  description: 'A saved search: v3 list conditions and sort, for one kind of list. Its owner sees it, and the whole account when it is shared.',
})
export class SavedSearch {
  [OptionalProps]?: 'isShared' | 'isDefault' | 'query' | 'columns' | 'sort' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId' | 'userId' | 'order';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('SavedSearch', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** The owner; their searches go with them. */
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'Name, at most 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field({ description: 'Shared with every user of the account (they may read and run it; only its owner changes it).' })
  @Property({ type: 'boolean' })
  isShared: boolean = false;

  @Field({ description: "The owner's default search for its list; at most one per owner and list. Stored and shown; lists do not apply it by themselves." })
  @Property({ type: 'boolean' })
  isDefault: boolean = false;

  @Field(() => SavedSearchType, { description: 'The list the search is for.' })
  @Enum({ items: () => SavedSearchType })
  searchType!: SavedSearchType;

  @Field(() => GraphQLJSONObject, {
    description:
      'The conditions: v3 condition names (those of the list\'s `conditions[...]`, and `custom_label_<id>`) to arrays of values, e.g. `{"company_name": ["Acme"], "company_created": [{"from_date": "2014-01-01"}]}`.',
  })
  @Property({ type: 'json', defaultRaw: `'{}'` })
  query: Record<string, unknown[]> = {};

  @Field(() => [String], { description: 'The v3 attributes a client shows as columns, in order (stored for clients; the API does not use them).' })
  @Property({ type: 'json', defaultRaw: `'[]'` })
  columns: string[] = [];

  /** The v3 sort value (v3 `sort`); GraphQL shows it as `order` (the schema never names a field `sort`). */
  @Property({ type: 'string', length: 200, nullable: true })
  sort: string | null = null;

  @Field({ description: 'When the search was saved first.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the search was last changed.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => String, {
    nullable: true,
    description: "The order, as a v3 sort value (e.g. `-companies.updated_at`; v3 `sort`); null for the list's default order.",
  })
  get order(): string | null {
    return this.sort;
  }

  @Field(() => Int, { description: 'databaseId of the user who owns the search.' })
  @Extensions({ [READS]: ['user'] })
  get userId(): number {
    return this.user.id;
  }
}
