import { Arg, Ctx, Extensions, Int, Query, Resolver } from 'type-graphql';
import { BadInputError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { ListSize } from '../../graphql/cost';
import { CHANGES_DEFAULT_PAGE, CHANGES_MAX_PAGE, CHANGES_MAX_RECORD_IDS, readChanges } from './change-feed';
import { Change, ChangeAction, ChangeFeed, ChangeModel } from './change.types';
import { Scope, SCOPE_OPEN } from '../../graphql/scopes';

@Resolver()
export class ChangeFeedResolver {
  @Query(() => ChangeFeed, {
    description:
      "The account's changes (creates, updates with their fields before and after, deletes as tombstones) of the records the viewer may see, oldest first, from `after` on. Poll it with the last `endCursor` to follow every change, deletes included. A cursor older than the changes kept (30 days unless configured) is a GONE error: read the lists again, then the feed from its start.",
  })
  // Charged like a page of `first` records.
  @Extensions({ listSize: { argument: 'first', max: CHANGES_MAX_PAGE } satisfies ListSize })
  @Scope(SCOPE_OPEN)
  async changes(
    @Ctx() ctx: RequestContext,
    @Arg('after', () => String, { nullable: true, description: 'A cursor (`endCursor`) to read on from; none: from the oldest change kept.' })
    after?: string | null,
    @Arg('first', () => Int, { nullable: true, defaultValue: CHANGES_DEFAULT_PAGE, description: `How many changes at most, 1 to ${CHANGES_MAX_PAGE}.` })
    first?: number | null,
    @Arg('models', () => [ChangeModel], { nullable: true, description: 'Only the changes of these kinds of record.' }) models?: ChangeModel[] | null,
    @Arg('actions', () => [ChangeAction], { nullable: true, description: 'Only these actions.' }) actions?: ChangeAction[] | null,
    @Arg('recordIds', () => [Int], { nullable: true, description: `Only the changes of these records (databaseIds, at most ${CHANGES_MAX_RECORD_IDS}).` })
    recordIds?: number[] | null,
  ): Promise<ChangeFeed> {
    const size = first ?? CHANGES_DEFAULT_PAGE;
    if (!Number.isInteger(size) || size < 1 || size > CHANGES_MAX_PAGE) throw new BadInputError('first', `must be between 1 and ${CHANGES_MAX_PAGE}`);
    if (recordIds && recordIds.length > CHANGES_MAX_RECORD_IDS) throw new BadInputError('recordIds', `takes at most ${CHANGES_MAX_RECORD_IDS} ids`);
    if (recordIds?.some((id) => !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647))
      throw new BadInputError('recordIds', 'holds an id that is no databaseId');
    const page = await readChanges(ctx, after, size, { models, actions, recordIds }, 'after');
    const edges = page.changes.map(({ row, cursor }) => ({ cursor, node: new Change(row) }));
    return { nodes: edges.map((e) => e.node), edges, endCursor: page.endCursor, hasNextPage: page.hasNextPage };
  }
}
