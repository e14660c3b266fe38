import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, ID, Info, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, pagingOf } from '../../graphql/connection';
import { NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { fromGlobalId, registerNode } from '../../graphql/node';
import { payloadOf } from '../../graphql/payload';
import { declareRecordType, Scope, SCOPE_OPEN } from '../../graphql/scopes';
import { ExportService, findExports } from './export.service';
import { CancelExportPayload, Export, ExportConnection, StartExportInput, StartExportPayload } from './export.types';

registerNode({ name: 'Export', entity: Export, find: findExports });
// Its fields are open: an Export is only ever handed out after the service checked its resource's read scope.
declareRecordType('Export', Export, SCOPE_OPEN);

/** The id argument: a databaseId or the Export's global id. */
function idOf(raw: string): number {
  const trimmed = raw.trim();
  if (/^[1-9]\d{0,9}$/.test(trimmed)) return Number(trimmed);
  const global = fromGlobalId(trimmed);
  return global && global.typeName === 'Export' ? global.databaseId : 0;
}

/**
 * Bulk exports (issue 27 §2). The scope each needs is the read scope of the export's resource
 * (`people:read` for PEOPLE), which depends on the input: the fields are declared open and the
 * service checks it (ScopeMissingError, as the static check would answer).
 */
@Resolver()
export class ExportResolver {
  @Mutation(() => StartExportPayload, {
    description:
      "Starts exporting a list (with its filter, a saved search's conditions or v3 conditions) to a CSV or JSONL file: the export is QUEUED and a worker writes the file from one snapshot of the records the viewer may see. Needs the resource's read scope. A filter that is not the resource's, or cannot run, is a user error.",
  })
  @Scope(SCOPE_OPEN)
  async startExport(
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('input', () => StartExportInput, { description: 'What to export.' }) input: StartExportInput,
  ): Promise<StartExportPayload> {
    const { result, userErrors } = await payloadOf(() => new ExportService(ctx).start(input, info.schema));
    return { export: result, userErrors };
  }

  @Query(() => Export, { nullable: true, description: "One export: the viewer's own (an administrator's: any of the account); null otherwise." })
  @Scope(SCOPE_OPEN)
  export(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'Its databaseId or global id.' }) id: string): Promise<Export | null> {
    return new ExportService(ctx).find(idOf(id));
  }

  @Query(() => ExportConnection, { description: "The viewer's exports (an administrator's: the account's) of the resources the key may read, newest first." })
  @Scope(SCOPE_OPEN)
  exports(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs) {
    return new ExportService(ctx).list(pagingOf(args, 20));
  }

  @Mutation(() => CancelExportPayload, {
    description:
      'Cancels an export that is not finished: CANCELLED at once, its worker stops at its next batch and keeps no file. A finished export is answered as it is; one the viewer may not see is a NOT_FOUND user error.',
  })
  @Scope(SCOPE_OPEN)
  async cancelExport(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: 'Its databaseId or global id.' }) id: string,
  ): Promise<CancelExportPayload> {
    const { result, userErrors } = await payloadOf(async () => {
      const found = await new ExportService(ctx).cancel(idOf(id));
      if (!found) throw new NotFoundError('Export', id);
      return found;
    });
    return { export: result, userErrors };
  }
}
