import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Extensions, Field, Int, Mutation, ObjectType, Query, registerEnumType, Resolver } from 'type-graphql';
import { NotFoundError } from '../../common/errors';
import { enqueueAfterCommit, type RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import type { ListSize } from '../../graphql/cost';
import { payloadOf, UserError } from '../../graphql/payload';
import { requireAdmin } from '../common/admin';
import { findVisible } from '../common/resource';
import { WEBHOOK_ENDPOINTS } from './webhook-endpoint.service';
import { Scope } from '../../graphql/scopes';

export enum WebhookDeliveryStatus {
  PENDING = 'pending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}
registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'Where a delivery is.',
  valuesConfig: {
    PENDING: { description: 'Not yet answered with a 2xx: due, or waiting for its next attempt.' },
    DELIVERED: { description: 'Answered with a 2xx.' },
    FAILED: { description: 'Given up on: every attempt failed, or the endpoint answered 410.' },
  },
});

/** How many deliveries a read lists at most, and the attempts shown of each (a delivery has at most 8). */
const MAX_DELIVERIES = 200;
const MAX_ATTEMPTS = 8;

@ObjectType('WebhookAttempt', { description: 'One attempt to deliver.' })
export class WebhookAttempt {
  @Field({ description: 'When it was made.' }) attemptedAt!: Date;
  @Field(() => Int, { description: 'How long it took, in milliseconds.' }) durationMs!: number;
  @Field(() => Int, { nullable: true, description: 'The status the endpoint answered; null when no answer came.' }) statusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'The first KB of the answer.' }) responseHead!: string | null;
  @Field(() => String, { nullable: true, description: 'Why no answer came (a refused address, a timeout, a refused connection).' }) error!: string | null;
}

@ObjectType('WebhookDelivery', { description: 'One change (or test) sent to one endpoint, with its attempts.' })
export class WebhookDelivery {
  @Field(() => Int, { description: 'Its databaseId; `webhook-id` is `msg_` and this.' }) databaseId!: number;
  @Field(() => Int, { description: "The endpoint's databaseId." }) endpointId!: number;
  @Field({ description: 'The `type` of its body: `deal.updated`, or `webhook.test`.' }) eventType!: string;
  @Field(() => String, { nullable: true, description: "The change's sequence (null for a test)." }) changeSequence!: string | null;
  @Field(() => WebhookDeliveryStatus, { description: 'Pending, delivered or failed.' }) status!: WebhookDeliveryStatus;
  @Field(() => Date, { description: 'When it is next attempted, while pending.' }) nextAttemptAt!: Date;
  @Field(() => Int, { nullable: true, description: 'The status the last attempt got.' }) lastStatusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed.' }) lastError!: string | null;
  @Field({ description: 'When it was made.' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When a 2xx answered it.' }) deliveredAt!: Date | null;
  @Field(() => GraphQLJSONObject, { description: 'The body sent (the same bytes at every attempt).' }) payload!: Record<string, unknown>;
  @Field(() => [WebhookAttempt], { description: `Its attempts, oldest first (at most ${MAX_ATTEMPTS}).` })
  @Extensions({ listSize: { max: MAX_ATTEMPTS } satisfies ListSize })
  attempts!: WebhookAttempt[];
}

@ObjectType('WebhookDeliveryPayload', { description: 'The result of a redelivery, a replay or a test delivery.' })
class WebhookDeliveryPayload {
  @Field(() => Int, { description: 'How many deliveries are due now.' }) queued!: number;
  @Field(() => [UserError], { description: 'Why nothing was queued (NOT_FOUND on id).' }) userErrors!: UserError[];
}

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';

interface DeliveryRow {
  id: string;
  endpoint_id: number;
  event_type: string;
  change_id: string;
  status: WebhookDeliveryStatus;
  next_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  body: string;
}

/** The endpoint, visible to this administrator, or NotFound. */
async function endpointOf(ctx: RequestContext, id: number): Promise<number> {
  requireAdmin(ctx, 'webhooks');
  const endpoint = await findVisible(ctx, WEBHOOK_ENDPOINTS, id);
  if (!endpoint) throw new NotFoundError('WebhookEndpoint', id);
  return endpoint.id;
}

/** Makes deliveries due now (attempts counted anew) and gives their endpoint a run after the commit. */
async function requeue(ctx: RequestContext, endpointId: number, where: string, params: unknown[]): Promise<number> {
  return mutation(ctx, async (em) => {
    const rows = await em.execute<Array<{ id: string }>>(
      `update webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = now() where endpoint_id = ? and ${where} returning id`,
      [endpointId, ...params],
      'all',
    );
    if (rows.length > 0) enqueueAfterCommit(ctx, 'deliver-webhooks', () => ({ endpointId }));
    return rows.length;
  });
}

@Resolver()
export class WebhookDeliveryResolver {
  @Query(() => [WebhookDelivery], {
    description: `An endpoint's deliveries, newest first, with their attempts; none for an endpoint that does not exist in the account. ${ADMINS_ONLY}`,
  })
  @Extensions({ listSize: { argument: 'first', max: MAX_DELIVERIES } satisfies ListSize })
  @Scope('webhook_endpoints:read')
  async webhookDeliveries(
    @Ctx() ctx: RequestContext,
    @Arg('endpointId', () => Int, { description: "The endpoint's databaseId." }) endpointId: number,
    @Arg('status', () => WebhookDeliveryStatus, { nullable: true, description: 'Only those in this state.' }) status?: WebhookDeliveryStatus | null,
    @Arg('first', () => Int, { nullable: true, defaultValue: 50, description: `How many at most, 1 to ${MAX_DELIVERIES}.` }) first?: number | null,
  ): Promise<WebhookDelivery[]> {
    requireAdmin(ctx, 'webhooks');
    // An endpoint missing or of another account has no deliveries to show.
    const endpoint = await findVisible(ctx, WEBHOOK_ENDPOINTS, endpointId);
    if (!endpoint) return [];
    const id = endpoint.id;
    const size = Math.min(Math.max(first ?? 50, 1), MAX_DELIVERIES);
    const rows = await ctx.em.execute<DeliveryRow[]>(
      `select id::text, endpoint_id, event_type, change_id::text, status, next_attempt_at, last_status_code, last_error, created_at, delivered_at, body
         from webhook_deliveries where endpoint_id = ? ${status ? 'and status = ?' : ''} order by webhook_deliveries.id desc limit ?`,
      [id, ...(status ? [status] : []), size],
      'all',
    );
    const attempts =
      rows.length === 0
        ? []
        : await ctx.em.execute<
            Array<{
              delivery_id: string;
              attempted_at: string;
              duration_ms: number;
              status_code: number | null;
              response_head: string | null;
              error: string | null;
            }>
          >(
            `select delivery_id::text, attempted_at, duration_ms, status_code, response_head, error from webhook_attempts where delivery_id in (?) order by id`,
            [rows.map((r) => r.id)],
            'all',
          );
    return rows.map((r) => ({
      databaseId: Number(r.id),
      endpointId: r.endpoint_id,
      eventType: r.event_type,
      changeSequence: Number(r.change_id) > 0 ? r.change_id : null,
      status: r.status,
      nextAttemptAt: new Date(r.next_attempt_at),
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      createdAt: new Date(r.created_at),
      deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
      payload: JSON.parse(r.body) as Record<string, unknown>,
      attempts: attempts
        .filter((a) => a.delivery_id === r.id)
        .slice(-MAX_ATTEMPTS)
        .map((a) => ({
          attemptedAt: new Date(a.attempted_at),
          durationMs: a.duration_ms,
          statusCode: a.status_code,
          responseHead: a.response_head,
          error: a.error,
        })),
    }));
  }

  @Mutation(() => WebhookDeliveryPayload, {
    description: `Sends a delivery again now (a delivered or failed one too), its attempts counted anew. ${ADMINS_ONLY}`,
  })
  @Scope('webhook_endpoints:write')
  async redeliverWebhookDelivery(
    @Ctx() ctx: RequestContext,
    @Arg('endpointId', () => Int, { description: "The endpoint's databaseId." }) endpointId: number,
    @Arg('id', () => Int, { description: "The delivery's databaseId." }) id: number,
  ): Promise<WebhookDeliveryPayload> {
    const { result, userErrors } = await payloadOf(async () => requeue(ctx, await endpointOf(ctx, endpointId), 'id = ?', [id]));
    return { queued: result ?? 0, userErrors };
  }

  @Mutation(() => WebhookDeliveryPayload, {
    description: `Sends again, in order, every delivery of an endpoint made since a time (kept as long as the changes are). ${ADMINS_ONLY}`,
  })
  @Scope('webhook_endpoints:write')
  async replayWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The endpoint's databaseId." }) id: number,
    @Arg('since', () => Date, { description: 'The deliveries made at or after this time.' }) since: Date,
  ): Promise<WebhookDeliveryPayload> {
    const { result, userErrors } = await payloadOf(async () => requeue(ctx, await endpointOf(ctx, id), 'created_at >= ?', [since]));
    return { queued: result ?? 0, userErrors };
  }

  @Mutation(() => WebhookDeliveryPayload, { description: `Sends a test delivery (type \`webhook.test\`), signed like the others. ${ADMINS_ONLY}` })
  @Scope('webhook_endpoints:write')
  async testWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The endpoint's databaseId." }) id: number,
  ): Promise<WebhookDeliveryPayload> {
    const { result, userErrors } = await payloadOf(async () => {
      const endpointId = await endpointOf(ctx, id);
      return mutation(ctx, async (em) => {
        const at = ctx.clock.now();
        const body = JSON.stringify({ type: 'webhook.test', timestamp: at.toISOString(), data: { endpoint_id: endpointId } });
        // A test is no change: its change_id is negative, one per test (no two tests of an endpoint in one millisecond).
        await em.execute(
          `insert into webhook_deliveries (account_id, endpoint_id, change_id, event_type, body) values (?, ?, -((extract(epoch from clock_timestamp()) * 1000)::bigint), 'webhook.test', ?) on conflict do nothing`,
          [ctx.viewer.accountId, endpointId, body],
          'run',
        );
        enqueueAfterCommit(ctx, 'deliver-webhooks', () => ({ endpointId }));
        return 1;
      });
    });
    return { queued: result ?? 0, userErrors };
  }
}
