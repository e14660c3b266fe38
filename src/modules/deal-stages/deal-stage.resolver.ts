import { Arg, Args, Ctx, Info, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { findManyVisible } from '../common/resource';
import { DealStage } from './deal-stage.entity';
import { DEAL_STAGE, type DealStageInput } from './deal-stage.fields';
import { DEAL_STAGES, DEAL_STAGES_PAGE_SIZE, DealStageService } from './deal-stage.service';

@ObjectType('DealStageConnection', { description: 'A page of deal stages, with cursors.' })
export class DealStageConnection extends ConnectionOf(DealStage, 'DealStage', 'deal stages') {}

@ObjectType('CreateDealStagePayload', { description: 'The result of createDealStage.' })
class CreateDealStagePayload extends RecordPayload(DealStage, 'dealStage', 'The created stage') {}

@ObjectType('UpdateDealStagePayload', { description: 'The result of updateDealStage.' })
class UpdateDealStagePayload extends RecordPayload(DealStage, 'dealStage', 'The stage as changed') {}

@ObjectType('DeleteDealStagePayload', { description: 'The result of deleteDealStage.' })
class DeleteDealStagePayload extends DeletePayload {}

registerNode({ name: 'DealStage', entity: DealStage, find: (ctx, ids) => findManyVisible(ctx, DEAL_STAGES, ids) });

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';

/** Deal stages (DECISIONS: Admin surface): readable by every user of the account, changed by admins only. */
@Resolver()
export class DealStageResolver {
  @Query(() => DealStageConnection, {
    description: `The account's deal stages. Every user of the account may read them. Default order: position, then databaseId; ${DEAL_STAGES_PAGE_SIZE} a page unless asked otherwise.`,
  })
  dealStages(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => DEAL_STAGE.Filter, { nullable: true, description: 'Which stages; all of them when absent.' })
    filter?: InstanceType<typeof DEAL_STAGE.Filter>,
    @Arg('orderBy', () => [DEAL_STAGE.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' })
    orderBy?: Array<InstanceType<typeof DEAL_STAGE.Order>>,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<DealStage>> {
    return new DealStageService(ctx).list(filter, orderBy, pagingOf(args, DEAL_STAGES_PAGE_SIZE), connectionReads(info));
  }

  @Query(() => DealStage, { nullable: true, description: "One deal stage by databaseId; null when it does not exist in the viewer's account." })
  dealStage(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The stage's databaseId." }) id: number) {
    return new DealStageService(ctx).find(id);
  }

  @Mutation(() => CreateDealStagePayload, { description: `Adds a deal stage. ${ADMINS_ONLY}` })
  createDealStage(@Ctx() ctx: RequestContext, @Arg('input', () => DEAL_STAGE.CreateInput, { description: 'The new stage.' }) input: DealStageInput) {
    return recordPayload('dealStage', () => new DealStageService(ctx).create(input));
  }

  @Mutation(() => UpdateDealStagePayload, {
    description: `Changes a deal stage: only the fields given. A missing stage is a NOT_FOUND user error. ${ADMINS_ONLY}`,
  })
  updateDealStage(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The stage's databaseId." }) id: number,
    @Arg('input', () => DEAL_STAGE.UpdateInput, { description: 'The changes.' }) input: DealStageInput,
  ) {
    return recordPayload('dealStage', () => new DealStageService(ctx).update(id, input));
  }

  @Mutation(() => DeleteDealStagePayload, { description: `Deletes a deal stage. A missing stage is a NOT_FOUND user error. ${ADMINS_ONLY}` })
  deleteDealStage(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The stage's databaseId." }) id: number) {
    return deletePayload('DealStage', () => new DealStageService(ctx).delete(id));
  }
}
