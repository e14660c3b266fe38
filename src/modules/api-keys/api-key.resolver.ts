import { Arg, Ctx, Extensions, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { BadInputError, ForbiddenError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import type { ListSize } from '../../graphql/cost';
import { RecordPayload, recordPayload } from '../../graphql/payload';
import { Scope, SCOPE_ADMIN } from '../../graphql/scopes';
import { ApiKey } from './api-key.entity';
import { API_KEY_NAME_MAX, API_KEY_SCOPES_MAX, createApiKey, listApiKeys, revokeApiKey } from './api-key.service';

const API_KEYS_MAX_PAGE = 200;

@InputType('ApiKeyCreateInput', { description: 'A new API key of the viewer.' })
export class ApiKeyCreateInput {
  @Field({ description: `What the key is for, 1 to ${API_KEY_NAME_MAX} characters.` })
  name!: string;

  @Field(() => [String], {
    description: `What it may do, 1 to ${API_KEY_SCOPES_MAX} scopes: \`<resource>:read\` or \`<resource>:write\` (write lets it read too) of each resource, and \`admin\` (administrators only). None beyond the scopes of the key making it.`,
  })
  scopes!: string[];

  @Field(() => Date, { nullable: true, description: 'When it stops working (in the future); never when absent.' })
  expiresAt?: Date | null;
}

@ObjectType('CreateApiKeyPayload', { description: 'The result of createApiKey.' })
class CreateApiKeyPayload extends RecordPayload(ApiKey, 'apiKey', 'The created key, with its `secret` (shown this once)') {}

@ObjectType('RevokeApiKeyPayload', { description: 'The result of revokeApiKey.' })
class RevokeApiKeyPayload extends RecordPayload(ApiKey, 'apiKey', 'The revoked key') {}

/**
 * Scoped API keys (issue 26 §3): a user's named keys. Managing them takes a full key (the user's
 * own api_key) or a key with the `admin` scope; a key never makes one with scopes it lacks.
 */
@Resolver()
export class ApiKeyResolver {
  @Query(() => [ApiKey], {
    description: `The viewer's API keys (every key of the account with \`all\`, administrators only), newest first; revoked and expired ones included. Never their secrets.`,
  })
  @Extensions({ listSize: { argument: 'first', max: API_KEYS_MAX_PAGE } satisfies ListSize })
  @Scope(SCOPE_ADMIN)
  apiKeys(
    @Ctx() ctx: RequestContext,
    @Arg('all', () => Boolean, { defaultValue: false, description: "Every key of the account, not only the viewer's (administrators only)." }) all: boolean,
    @Arg('first', () => Int, { defaultValue: 100, description: `How many at most, 1 to ${API_KEYS_MAX_PAGE}.` }) first: number,
  ): Promise<ApiKey[]> {
    if (!Number.isInteger(first) || first < 1 || first > API_KEYS_MAX_PAGE) throw new BadInputError('first', `must be between 1 and ${API_KEYS_MAX_PAGE}`);
    if (all && !ctx.viewer.isAdmin) throw new ForbiddenError('Only administrators may list every key of the account');
    return listApiKeys(ctx.em, ctx.viewer.accountId, all ? null : ctx.viewer.userId, first);
  }

  @Mutation(() => CreateApiKeyPayload, {
    description:
      'Creates an API key acting as the viewer with at most the scopes given; its secret is in the payload, once. Problems with the input (an unknown scope, a scope the key making it lacks, a past expiry) come back as userErrors, and nothing is created.',
  })
  @Scope(SCOPE_ADMIN)
  createApiKey(@Ctx() ctx: RequestContext, @Arg('input', () => ApiKeyCreateInput, { description: 'The new key.' }) input: ApiKeyCreateInput) {
    return recordPayload('apiKey', () => mutation(ctx, (em) => createApiKey(em, ctx.viewer, input, ctx.clock.now())));
  }

  @Mutation(() => RevokeApiKeyPayload, {
    description:
      "Revokes an API key: it stops working at once. The viewer's own keys (administrators: any of the account); another is a NOT_FOUND user error. Revoking twice changes nothing.",
  })
  @Scope(SCOPE_ADMIN)
  revokeApiKey(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The key's databaseId." }) id: number) {
    return recordPayload('apiKey', () =>
      mutation(ctx, (em) => revokeApiKey(em, ctx.viewer.accountId, ctx.viewer.isAdmin ? null : ctx.viewer.userId, id, ctx.clock.now())),
    );
  }
}
