import type { GraphQLSchema } from 'graphql';
import { BadInputError, ForbiddenError, Issues, ValidationFailed } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { VisibilityRule, type Seer } from '../../context/visibility';
import type { ConnectionReads, OrderKey, Paging } from '../../db/keyset';
import { withoutNul, type Where } from '../../db/sql';
import type { Connection } from '../../graphql/connection';
import { canonicalQuery, customLabelAt } from '../../kit/v3/conditions';
import { V3InputError } from '../../kit/v3/input-error';
import { findVisible, listConnection, loadForWrite, scopeOf, type Records } from '../common/resource';
import { SavedSearch, SavedSearchType } from './saved-search.entity';
import { asArguments, searchVariables, vocabularyOf, type SearchVocabulary } from './saved-search.vocabulary';

/** A JSON value as PostgreSQL can store it: NUL dropped from every string, keys too (jsonb refuses it). */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return withoutNul(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), storable(v)]));
  return value;
}

/** Default page of `searches` (DECISIONS: Paging: every list not named, 100). */
export const SAVED_SEARCHES_PAGE_SIZE = 100;
export const MAX_NAME = 100;
export const MAX_COLUMNS = 100;
export const MAX_COLUMN = 100;
export const MAX_SORT = 200;

/**
 * Who sees a saved search: its owner, and every user of the account when it is shared
 * (DECISIONS: Admin surface: "A user sees their own searches and shared ones"). Admins and `all`
 * users included: a private search is its owner's alone, whatever else they may see.
 */
class SavedSearchRule extends VisibilityRule<SavedSearch> {
  constructor() {
    super([]);
  }

  override restrict(where: Where, alias: string, seer: Seer): Where {
    return where.add(`(${alias}.user_id = ? or ${alias}.is_shared)`, seer.userId);
  }

  override canSee(seer: Seer, search: SavedSearch): boolean {
    return search.user.id === seer.userId || search.isShared;
  }

  override usersWhoCanSee(
    users: Iterable<{ readonly id: number; readonly isAdmin: boolean; readonly visibility: Seer['visibility'] }>,
    search: SavedSearch,
  ): number[] {
    const ids: number[] = [];
    for (const u of users) if (this.canSee({ userId: u.id, isAdmin: u.isAdmin, visibility: u.visibility }, search)) ids.push(u.id);
    return ids;
  }
}

export const SAVED_SEARCHES: Records<SavedSearch> = { entity: SavedSearch, alias: 's', name: 'SavedSearch', visibility: new SavedSearchRule() };

/** Name (ignoring case), then id. */
const ORDER: readonly OrderKey[] = [{ sql: 'lower(s.name)', desc: false, nullable: false, type: 'text' }];

/** What create and update receive (GraphQL inputs): absent = unchanged; null clears (or is false). */
export interface SavedSearchInput {
  name?: string | null;
  searchType?: SavedSearchType | null;
  query?: Record<string, unknown> | null;
  columns?: string[] | null;
  /** A v3 sort value (v3 `sort`). */
  order?: string | null;
  isShared?: boolean | null;
  isDefault?: boolean | null;
}

/** `query[deal_created][from_date]` → `query.deal_created.from_date` (an issue's field path). */
function issueField(v3Name: string): string {
  const [head, ...rest] = v3Name.split('[');
  return [head, ...rest.map((part) => part.replace(/\]$/, ''))].join('.');
}

/**
 * `searchId` names no search the viewer may run on this list (another user's private one, one of
 * another list, a missing one): a BAD_USER_INPUT naming the argument, as any argument that cannot be
 * used, marked `reason: NOT_FOUND` so the v3 facade answers `search_id` with its 404 (v3 §4).
 */
export class UnknownSearchError extends BadInputError {
  constructor(what: string, id: number) {
    super('searchId', `no ${what} search ${id} among the viewer's own and the account's shared searches`);
  }

  override extensions() {
    return { ...super.extensions(), reason: 'NOT_FOUND' };
  }
}

/** The list's filter and order in GraphQL's words. */
export interface RunnableSearch {
  readonly filter: unknown;
  readonly orderBy: unknown;
}

/**
 * Saved searches (DECISIONS: Admin surface): read by their owner and, when shared, by the whole
 * account; changed by their owner only. A query is checked with the list's own v3 vocabulary when
 * saved, and run through the list's GraphQL filter, so `search_id` and `deals(searchId:)` give what
 * the same `conditions[...]` and `sort` give.
 */
export class SavedSearchService {
  constructor(private readonly ctx: RequestContext) {}

  list(type: SavedSearchType | null | undefined, paging: Paging, reads?: ConnectionReads): Promise<Connection<SavedSearch>> {
    const where = scopeOf(this.ctx, SAVED_SEARCHES);
    if (type) where.add('s.search_type = ?', type);
    return listConnection(this.ctx, SAVED_SEARCHES, where, ORDER, paging, reads);
  }

  find(id: number): Promise<SavedSearch | null> {
    return findVisible(this.ctx, SAVED_SEARCHES, id);
  }

  create(input: SavedSearchInput, schema: GraphQLSchema): Promise<SavedSearch> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      const name = this.checkName(input.name, issues, true);
      if (!input.searchType) issues.blank('searchType');
      const search = em.create(
        SavedSearch,
        { account: this.ctx.viewer.accountId, user: this.ctx.viewer.userId, name: name ?? '', searchType: input.searchType ?? SavedSearchType.DEALS },
        { persist: false },
      );
      this.assign(search, input, issues);
      if (input.searchType) await this.checkQuery(vocabularyOf(search.searchType), search, schema, issues);
      issues.throwIfAny();
      em.persist(search);
      await em.flush();
      if (search.isDefault) await this.onlyDefault(search);
      return search;
    });
  }

  update(id: number, input: SavedSearchInput, schema: GraphQLSchema): Promise<SavedSearch> {
    return mutation(this.ctx, async (em) => {
      const search = await this.own(id);
      const issues = new Issues();
      const name = input.name !== undefined ? this.checkName(input.name, issues, false) : null;
      if (input.searchType === null) issues.blank('searchType');
      if (name !== null) search.name = name;
      if (input.searchType) search.searchType = input.searchType;
      this.assign(search, input, issues);
      // The whole search is checked again: a new type must take the query and sort kept from before.
      await this.checkQuery(vocabularyOf(search.searchType), search, schema, issues);
      issues.throwIfAny();
      search.updatedAt = new Date();
      await em.flush();
      if (search.isDefault) await this.onlyDefault(search);
      return search;
    });
  }

  delete(id: number): Promise<number> {
    return mutation(this.ctx, async (em) => {
      em.remove(await this.own(id));
      return id;
    });
  }

  /**
   * The saved search `id` as the `type` list's filter and order (`deals(searchId:)`, v3 `search_id`),
   * read in the viewer's time zone. A search the viewer may not see, of another list, or missing is
   * an UnknownSearchError (v3: 404); one that no longer runs (a custom field deleted since) a
   * BAD_USER_INPUT naming `searchId` and the condition (v3: 422).
   */
  async runnable(type: SavedSearchType, id: number, schema: GraphQLSchema): Promise<RunnableSearch> {
    const vocabulary = vocabularyOf(type);
    const search = await this.find(id);
    if (!search || search.searchType !== type || !vocabulary.list) throw new UnknownSearchError(vocabulary.what, id);
    try {
      return asArguments(schema, vocabulary.list, searchVariables(schema, vocabulary, search.query, search.sort, this.ctx.viewer.timeZone), 'searchId');
    } catch (error) {
      if (error instanceof V3InputError) throw new BadInputError('searchId', `search ${id}: ${error.field} ${error.message}`);
      throw error;
    }
  }

  /** The viewer's own search, for a change: another user's (shared) one is FORBIDDEN; a hidden or missing one NOT_FOUND. */
  private async own(id: number): Promise<SavedSearch> {
    const search = await loadForWrite(this.ctx, SAVED_SEARCHES, id);
    if (search.user.id !== this.ctx.viewer.userId) throw new ForbiddenError('Only its owner may change a saved search');
    return search;
  }

  private checkName(raw: string | null | undefined, issues: Issues, required: boolean): string | null {
    const name = raw?.trim() ?? '';
    if (name === '') {
      if (required || raw !== undefined) issues.blank('name');
      return null;
    }
    if ([...name].length > MAX_NAME) {
      issues.tooLong('name', MAX_NAME);
      return null;
    }
    return name;
  }

  /** The plain fields: flags, columns, sort text and the query's shape (its meaning is checkQuery's). */
  private assign(search: SavedSearch, input: SavedSearchInput, issues: Issues): void {
    if (input.isShared !== undefined) search.isShared = input.isShared === true;
    if (input.isDefault !== undefined) search.isDefault = input.isDefault === true;
    if (input.columns !== undefined) {
      // NUL cannot be stored in text (PostgreSQL refuses it, in jsonb too): dropped, as text fields drop it.
      const columns = (input.columns ?? []).map((c) => withoutNul(c).trim());
      if (columns.length > MAX_COLUMNS) issues.add('columns', 'OUT_OF_RANGE', `has too many columns (maximum is ${MAX_COLUMNS})`);
      columns.forEach((column, i) => {
        if (column === '') issues.blank(`columns.${i}`);
        else if ([...column].length > MAX_COLUMN) issues.tooLong(`columns.${i}`, MAX_COLUMN);
      });
      search.columns = columns;
    }
    if (input.order !== undefined) {
      const sort = (input.order == null ? '' : withoutNul(input.order)).trim() || null;
      if (sort !== null && [...sort].length > MAX_SORT) issues.tooLong('order', MAX_SORT);
      search.sort = sort;
    }
    if (input.query !== undefined) search.query = canonicalQuery(storable(input.query) as Record<string, unknown> | null);
  }

  /**
   * The query and sort read with the list's v3 vocabulary (an unknown condition or a bad value is
   * an issue naming it: `query.deal_created.from_date`), then, for a list that runs, through its
   * GraphQL filter and one row of the list itself: what cannot run is refused now, not when used.
   */
  private async checkQuery(vocabulary: SearchVocabulary, search: SavedSearch, schema: GraphQLSchema, issues: Issues): Promise<void> {
    if (!issues.empty) return;
    const tz = this.ctx.viewer.timeZone;
    const refused = (error: unknown) => {
      if (!(error instanceof V3InputError)) throw error;
      // The v3 `sort` is the input's `order`.
      issues.invalid(error.field === 'sort' ? 'order' : issueField(error.field), error.message);
    };
    // Each condition, and the sort, on its own first: every bad one is named at once.
    for (const name of Object.keys(search.query)) {
      try {
        searchVariables(schema, vocabulary, { [name]: search.query[name] }, null, tz);
      } catch (error) {
        refused(error);
      }
    }
    try {
      searchVariables(schema, vocabulary, {}, search.sort, tz);
    } catch (error) {
      refused(error);
    }
    if (!issues.empty) return;
    let variables;
    try {
      variables = searchVariables(schema, vocabulary, search.query, search.sort, tz);
    } catch (error) {
      refused(error);
      return;
    }
    if (!vocabulary.list) return;
    try {
      const args = asArguments(schema, vocabulary.list, variables, 'query');
      await vocabulary.list.probe(this.ctx, args.filter as never, args.orderBy as never);
    } catch (error) {
      if (error instanceof BadInputError) {
        // A condition the core refused inside the filter (a custom field): name it when it can be told.
        const label = customLabelAt({ filter: variables.filter }, error.argument);
        issues.invalid(label ? `query.${label}` : 'query', error.message.replace(/^[^:]*: /, ''));
        return;
      }
      if (error instanceof ValidationFailed) {
        for (const issue of error.issues) issues.add(`query.${issue.field}`, issue.code, issue.message);
        return;
      }
      throw error;
    }
  }

  /** At most one default search per owner and list: the owner's others of the same list stop being it. */
  private async onlyDefault(search: SavedSearch): Promise<void> {
    await this.ctx.em.execute(
      `update "saved_searches" set is_default = false, updated_at = now() where account_id = ? and user_id = ? and search_type = ? and is_default and id <> ?`,
      [this.ctx.viewer.accountId, this.ctx.viewer.userId, search.searchType, search.id],
      'run',
    );
  }
}
