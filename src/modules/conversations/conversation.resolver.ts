import { Arg, Ctx, FieldResolver, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { relationField } from '../../graphql/relations';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { User } from '../users/user.entity';
import { Users } from '../users/user.loaders';
import { Conversation } from './conversation';
import { ConversationCreateInput, ConversationUpdateInput } from './conversation.inputs';
import { ConversationService } from './conversation.service';
import { withPrecondition } from '../../context/preconditions';
import { EXPECTED_VERSION_DOC } from '../../graphql/versioned';
import { declareRecordType, Scope } from '../../graphql/scopes';

@ObjectType('CreateConversationPayload', { description: 'The result of createConversation.' })
class CreateConversationPayload extends RecordPayload(Conversation, 'conversation', 'The created conversation') {}

@ObjectType('UpdateConversationPayload', { description: 'The result of updateConversation.' })
class UpdateConversationPayload extends RecordPayload(Conversation, 'conversation', 'The conversation as changed') {}

@ObjectType('DeleteConversationPayload', { description: 'The result of deleteConversation.' })
class DeleteConversationPayload extends DeletePayload {}

declareRecordType('Conversation', Conversation, 'conversations:read');
registerNode({ name: 'Conversation', entity: Conversation, find: (ctx, ids) => new ConversationService(ctx).getMany(ids) });

@Resolver()
export class ConversationResolver {
  @Query(() => Conversation, {
    nullable: true,
    description: 'One conversation (a note on a deal) by databaseId; null when it does not exist, is not on a deal, or the viewer may not see its deal.',
  })
  @Scope('conversations:read')
  conversation(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The conversation's (its note's) databaseId." }) id: number) {
    return new ConversationService(ctx).get(id);
  }

  @Mutation(() => CreateConversationPayload, {
    description: 'Writes a conversation on a deal the viewer may see. Problems with the input come back as userErrors, and nothing is created.',
  })
  @Scope('conversations:write')
  createConversation(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ConversationCreateInput, { description: 'The new conversation.' }) input: ConversationCreateInput,
  ) {
    return recordPayload('conversation', () => new ConversationService(ctx).create(input));
  }

  @Mutation(() => UpdateConversationPayload, { description: "Changes a conversation's text. A missing or hidden conversation is a NOT_FOUND user error." })
  @Scope('conversations:write')
  updateConversation(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The conversation's databaseId." }) id: number,
    @Arg('input', () => ConversationUpdateInput, { description: 'The changes.' }) input: ConversationUpdateInput,
    @Arg('expectedVersion', () => Int, { nullable: true, description: EXPECTED_VERSION_DOC }) expectedVersion?: number | null,
  ) {
    return recordPayload('conversation', () =>
      withPrecondition(ctx, { type: 'Conversation', id, version: expectedVersion }, () => new ConversationService(ctx).update(id, input)),
    );
  }

  @Mutation(() => DeleteConversationPayload, {
    description: 'Deletes a conversation (the note it is). A missing or hidden conversation is a NOT_FOUND user error.',
  })
  @Scope('conversations:write')
  deleteConversation(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The conversation's databaseId." }) id: number,
    @Arg('expectedVersion', () => Int, { nullable: true, description: EXPECTED_VERSION_DOC }) expectedVersion?: number | null,
  ) {
    return deletePayload('Conversation', () =>
      withPrecondition(ctx, { type: 'Conversation', id, version: expectedVersion }, () => new ConversationService(ctx).delete(id)),
    );
  }
}

@Resolver(() => Conversation)
export class ConversationFieldsResolver {
  @FieldResolver(() => User, { nullable: true, description: 'The user who wrote it (its owner); null when that user was deleted.' })
  user(@Root() conversation: Conversation, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, conversation.userId);
  }

  @FieldResolver(() => String, { nullable: true, description: 'The full name of the user who wrote it (v3 `author`); null when that user was deleted.' })
  author(@Root() conversation: Conversation, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, conversation.userId, (u) => u?.fullName ?? null);
  }
}
