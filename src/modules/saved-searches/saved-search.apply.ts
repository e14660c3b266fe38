import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { SavedSearchType } from './saved-search.entity';
import { SavedSearchService } from './saved-search.service';

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
