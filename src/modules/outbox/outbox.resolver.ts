import { Arg, Args, Ctx, Extensions, Field, FieldResolver, Info, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, type RelationPreload } from '../../graphql/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import type { RowCost } from '../../graphql/cost';
import { fromGlobalId, Node, registerNode, resolveNodes, toGlobalId } from '../../graphql/node';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import type { MailKind } from './mail-intent';
import { OutboxMessage, OutboxMessageKind, OutboxStatus } from './outbox-message.entity';
import { OUTBOX_PAGE_SIZE, OutboxService, type MailPreview as Preview } from './outbox.service';
import { declareRecordType, Scope, SCOPE_ADMIN } from '../../graphql/scopes';

@ObjectType('OutboxMessageConnection', { description: 'A page of outbox messages, with cursors.' })
export class OutboxMessageConnection extends ConnectionOf(OutboxMessage, 'OutboxMessage', 'outbox messages') {}

@ObjectType('MailPreview', { simpleResolvers: true, description: "A mail of the outbox as it would be sent now, in its recipient's time zone and visibility." })
class MailPreview implements Preview {
  @Field({ description: 'The subject line.' })
  subject!: string;

  @Field({ description: 'The plain-text body.' })
  text!: string;
}

// The outbox is the admin surface.
declareRecordType('OutboxMessage', OutboxMessage, SCOPE_ADMIN);
registerNode({ name: 'OutboxMessage', entity: OutboxMessage, find: (ctx, ids) => new OutboxService(ctx).find(ids) });

/**
 * What rendering one preview reads, at most: the recipient and their account, who made the change,
 * the record (a note with its deal, person and company, or a person and their company), a comment.
 */
const PREVIEW_ROWS = 8;

/** What a page's selected fields read: the account's users, once, when `recipient` is selected. */
const RELATIONS: readonly RelationPreload<OutboxMessage>[] = [usersPreload('recipient')];

/** Issue 13: the mail the service owes, readable by the account's administrators. */
@Resolver()
export class OutboxResolver {
  @Query(() => OutboxMessageConnection, {
    description: `The mail the service owes users of the viewer's account: pending, sent and failed, newest first (then by databaseId, newest first); ${OUTBOX_PAGE_SIZE} a page unless asked otherwise. Administrators only (others get a FORBIDDEN error).`,
  })
  @Scope(SCOPE_ADMIN)
  async outboxMessages(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('status', () => OutboxStatus, { nullable: true, description: 'Only messages in this state; all when absent.' }) status?: OutboxStatus | null,
    @Arg('kind', () => OutboxMessageKind, { nullable: true, description: 'Only messages of this kind; all when absent.' }) kind?: MailKind | null,
    @Arg('recipientId', () => Int, { nullable: true, description: 'Only messages to this user (their databaseId); all when absent.' })
    recipientId?: number | null,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<OutboxMessage>> {
    const result = await new OutboxService(ctx).list({ status, kind, recipientId }, () => pagingOf(args, OUTBOX_PAGE_SIZE), connectionReads(info));
    await preloadPage(ctx, RELATIONS, result.nodes, info);
    return result;
  }
}

@Resolver(() => OutboxMessage)
export class OutboxMessageFieldsResolver {
  // Not a getter of the entity: renderMail tells a stored row from a claimed one by `recipientId`.
  @FieldResolver(() => Int, { description: 'databaseId of the user the mail is for.' })
  recipientId(@Root() message: OutboxMessage): number {
    return message.recipient.id;
  }

  @FieldResolver(() => User, { description: 'The user the mail is for.' })
  recipient(@Root() message: OutboxMessage, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, message.recipient.id);
  }

  @FieldResolver(() => Node, { nullable: true, description: 'The record the mail is about (see subjectType and subjectId); null once it has been deleted.' })
  async subject(@Root() message: OutboxMessage, @Ctx() ctx: RequestContext): Promise<object | null> {
    const id = toGlobalId(message.subjectType, message.subjectId);
    if (!fromGlobalId(id)) return null;
    return (await resolveNodes(ctx, [id]))[0] ?? null;
  }

  @FieldResolver(() => MailPreview, {
    nullable: true,
    description: `The mail rendered now from the current records, as its recipient may see them (what a delivery would send, though the records may change before it does): a record hidden from the recipient is not named, whoever reads the preview. Null when it cannot be rendered, or would not be sent because the recipient may no longer see the record it is about. Each preview costs like ${PREVIEW_ROWS} records read.`,
  })
  // Rendering reads records of its own, row by row: charged (cost.ts RowCost), not free like a convenience object.
  @Extensions({ rowCost: { rows: PREVIEW_ROWS } satisfies RowCost })
  preview(@Root() message: OutboxMessage, @Ctx() ctx: RequestContext) {
    return new OutboxService(ctx).preview(message);
  }
}
