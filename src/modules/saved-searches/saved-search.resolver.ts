import { Arg, Args, Ctx, Info, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { findManyVisible } from '../common/resource';
import { SavedSearch, SavedSearchType } from './saved-search.entity';
import { SavedSearchCreateInput, SavedSearchUpdateInput } from './saved-search.inputs';
import { SAVED_SEARCHES, SAVED_SEARCHES_PAGE_SIZE, SavedSearchService } from './saved-search.service';
import { declareRecordType, Scope } from '../../graphql/scopes';

@ObjectType('SavedSearchConnection', { description: 'A page of saved searches, with cursors.' })
export class SavedSearchConnection extends ConnectionOf(SavedSearch, 'SavedSearch', 'saved searches') {}

@ObjectType('CreateSearchPayload', { description: 'The result of createSearch.' })
class CreateSearchPayload extends RecordPayload(SavedSearch, 'search', 'The saved search') {}

@ObjectType('UpdateSearchPayload', { description: 'The result of updateSearch.' })
class UpdateSearchPayload extends RecordPayload(SavedSearch, 'search', 'The saved search as changed') {}

@ObjectType('DeleteSearchPayload', { description: 'The result of deleteSearch.' })
class DeleteSearchPayload extends DeletePayload {}

declareRecordType('SavedSearch', SavedSearch, 'saved_searches:read');
registerNode({ name: 'SavedSearch', entity: SavedSearch, find: (ctx, ids) => findManyVisible(ctx, SAVED_SEARCHES, ids) });

const OWN_ONLY = "Only the search's owner may (another user's shared search is a FORBIDDEN error; a search the viewer cannot see a NOT_FOUND user error).";

/** Saved searches (DECISIONS: Admin surface): the viewer's own and the account's shared ones; run them with `deals(searchId:)`, `people(searchId:)`, `companies(searchId:)`. */
@Resolver()
export class SavedSearchResolver {
  @Query(() => SavedSearchConnection, {
    description: `The viewer's own saved searches and those shared with the account (admins too see only these). Default order: name, then databaseId; ${SAVED_SEARCHES_PAGE_SIZE} a page unless asked otherwise.`,
  })
  @Scope('saved_searches:read')
  searches(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('type', () => SavedSearchType, { nullable: true, description: 'Only the searches of this list; all of them when absent.' })
    type?: SavedSearchType | null,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<SavedSearch>> {
    return new SavedSearchService(ctx).list(type, pagingOf(args, SAVED_SEARCHES_PAGE_SIZE), connectionReads(info));
  }

  @Query(() => SavedSearch, { nullable: true, description: "One saved search by databaseId; null when it does not exist or is another user's private search." })
  @Scope('saved_searches:read')
  search(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The search's databaseId." }) id: number) {
    return new SavedSearchService(ctx).find(id);
  }

  @Mutation(() => CreateSearchPayload, {
    description: 'Saves a search for the viewer. An unknown condition, a bad value or sort come back as userErrors naming them, and nothing is saved.',
  })
  @Scope('saved_searches:write')
  createSearch(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => SavedSearchCreateInput, { description: 'The new search.' }) input: SavedSearchCreateInput,
    @Info() info: GraphQLResolveInfo,
  ) {
    return recordPayload('search', () => new SavedSearchService(ctx).create(input, info.schema));
  }

  @Mutation(() => UpdateSearchPayload, { description: `Changes a saved search: only the fields given. ${OWN_ONLY}` })
  @Scope('saved_searches:write')
  updateSearch(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The search's databaseId." }) id: number,
    @Arg('input', () => SavedSearchUpdateInput, { description: 'The changes.' }) input: SavedSearchUpdateInput,
    @Info() info: GraphQLResolveInfo,
  ) {
    return recordPayload('search', () => new SavedSearchService(ctx).update(id, input, info.schema));
  }

  @Mutation(() => DeleteSearchPayload, { description: `Deletes a saved search. ${OWN_ONLY}` })
  @Scope('saved_searches:write')
  deleteSearch(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The search's databaseId." }) id: number) {
    return deletePayload('SavedSearch', () => new SavedSearchService(ctx).delete(id));
  }
}
