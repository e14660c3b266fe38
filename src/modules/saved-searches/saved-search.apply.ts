import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { SavedSearchType } from './saved-search.entity';
import { SavedSearchService } from './saved-search.service';
import { registerSearchableList, type SearchableRegistration, type SearchableSpec } from './saved-search.vocabulary';

export { SavedSearchType };

/** The doc of every list's `searchId` argument. */
export const SEARCH_ID_DOC =
  'Run a saved search of this list (its databaseId): its conditions hold besides `filter`, and its sort applies unless `orderBy` is given. ' +
  'A search the viewer may not see, of another list, or missing is a BAD_USER_INPUT error naming `searchId`.';

/**
 * A list's `searchId` argument (v3 `search_id`): the saved search's filter and-ed with `filter`,
 * and its sort unless `orderBy` is given. Without `searchId`, the arguments as they came.
 */
export async function withSavedSearch<F, O>(
  ctx: RequestContext,
  type: SavedSearchType,
  searchId: number | null | undefined,
  filter: F | null | undefined,
  orderBy: O[] | null | undefined,
  info: GraphQLResolveInfo | undefined,
): Promise<{ filter: F | null | undefined; orderBy: O[] | null | undefined }> {
  if (searchId === null || searchId === undefined) return { filter, orderBy };
  if (!info) throw new Error("searchId needs the schema (the resolver's info)");
  const search = await new SavedSearchService(ctx).runnable(type, searchId, info.schema);
  return {
    filter: (filter ? { and: [filter, search.filter] } : search.filter) as F,
    orderBy: orderBy && orderBy.length > 0 ? orderBy : (search.orderBy as O[]),
  };
}

/**
 * A record resource's `search`: its list takes `searchId`, and saved searches of `spec.type` run
 * its list with its vocabulary (registered when recordResource reads the declaration). One line in
 * the declaration makes a list searchable; SavedSearchType names the lists (v3 `search_type`).
 */
export function savedSearches(spec: SearchableSpec) {
  return {
    doc: SEARCH_ID_DOC,
    apply: <F, O>(
      ctx: RequestContext,
      searchId: number | null | undefined,
      filter: F | null | undefined,
      orderBy: O[] | null | undefined,
      info: GraphQLResolveInfo | undefined,
    ) => withSavedSearch(ctx, spec.type, searchId, filter, orderBy, info),
    register: (registration: SearchableRegistration) => registerSearchableList(spec, registration),
  };
}
