import { Arg, Ctx, Field, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { payloadOf, UserError } from '../../graphql/payload';
import { recordResource } from '../common/record-resource';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WEBHOOK_ENDPOINT_FIELDS, type WebhookEndpointInput } from './webhook-endpoint.fields';
import { PREVIOUS_SECRET_HOURS, WEBHOOK_ENDPOINTS, WebhookEndpointService } from './webhook-endpoint.service';
import { Scope } from '../../graphql/scopes';

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';

/**
 * Webhook endpoints (issue 24 §3): the generated list, lookup and mutations, administrators only
 * (reads too); the create's payload carries the signing secret once.
 */
export const WEBHOOK_ENDPOINT_RESOURCE = recordResource({
  records: WEBHOOK_ENDPOINTS,
  fields: WEBHOOK_ENDPOINT_FIELDS,
  singular: 'webhookEndpoint',
  plural: 'webhookEndpoints',
  docs: {
    list: `The account's webhook endpoints. ${ADMINS_ONLY}`,
    filter: 'Which endpoints; all of them when absent.',
    show: `One webhook endpoint by databaseId; null when it does not exist in the viewer's account. ${ADMINS_ONLY}`,
    create: `Adds a webhook endpoint; its payload shows the signing secret, once. A URL reaching a private address is an INVALID user error on url. ${ADMINS_ONLY}`,
    update: `Changes a webhook endpoint: only the fields given. A missing endpoint is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a webhook endpoint. A missing endpoint is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The endpoint's databaseId.",
    input: 'The new endpoint.',
    created: 'The created endpoint, with its signingSecret',
    changed: 'The endpoint as changed',
  },
  readers: 'admins',
  steps: {
    create: (ctx, input) => new WebhookEndpointService(ctx).create(input as WebhookEndpointInput),
    update: (ctx, id, input) => new WebhookEndpointService(ctx).update(id, input as WebhookEndpointInput),
    delete: (ctx, id) => new WebhookEndpointService(ctx).delete(id),
  },
});

@ObjectType('RotateWebhookEndpointSecretPayload', { description: 'The result of rotateWebhookEndpointSecret.' })
class RotateWebhookEndpointSecretPayload {
  @Field(() => WebhookEndpoint, { nullable: true, description: 'The endpoint, with its new signingSecret; null when userErrors refused it.' })
  webhookEndpoint!: WebhookEndpoint | null;

  @Field(() => [UserError], { description: 'Why nothing changed (NOT_FOUND on id).' })
  userErrors!: UserError[];
}

@Resolver()
export class WebhookEndpointSecretResolver {
  @Mutation(() => RotateWebhookEndpointSecretPayload, {
    description: `A new signing secret for an endpoint, shown once in the payload; deliveries are signed with the previous one too for ${PREVIOUS_SECRET_HOURS} hours, so receivers can switch. ${ADMINS_ONLY}`,
  })
  @Scope('webhook_endpoints:write')
  async rotateWebhookEndpointSecret(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The endpoint's databaseId." }) id: number,
  ): Promise<RotateWebhookEndpointSecretPayload> {
    const { result, userErrors } = await payloadOf(() => new WebhookEndpointService(ctx).rotateSecret(id));
    return { webhookEndpoint: result ?? null, userErrors };
  }
}
