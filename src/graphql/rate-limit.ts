import { getGraphQLRateLimiter, type Store } from 'graphql-rate-limit';
import { GraphQLObjectType, defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../common/errors';
import type { RateLimitTier } from '../config/config';
import type { RateState, RequestContext, Viewer } from '../context/context';

/** Outcome of taking one token from a bucket. */
export interface BucketResult {
  readonly allowed: boolean;
  readonly tokens: number;
}

/** A token bucket per identity: `burst` back-to-back calls, refilled at `perSecond` (DECISIONS: Auth and rate limit). */
export interface BucketBackend {
  take(key: string, tier: RateLimitTier): Promise<BucketResult>;
  peek(key: string, tier: RateLimitTier): Promise<number>;
  close(): Promise<void>;
}

export class MemoryBuckets implements BucketBackend {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** `now` in milliseconds; injectable so tests need not wait on the real clock. */
  constructor(private readonly now: () => number = () => Date.now()) {}

  private refill(key: string, tier: RateLimitTier, now: number): { tokens: number; at: number } {
    const b = this.buckets.get(key) ?? { tokens: tier.burst, at: now };
    b.tokens = Math.min(tier.burst, b.tokens + ((now - b.at) / 1000) * tier.perSecond);
    b.at = now;
    return b;
  }

  async take(key: string, tier: RateLimitTier): Promise<BucketResult> {
    const b = this.refill(key, tier, this.now());
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.sweep(tier);
    return { allowed, tokens: b.tokens };
  }

  async peek(key: string, tier: RateLimitTier): Promise<number> {
    const b = this.buckets.get(key);
    if (!b) return tier.burst;
    return Math.min(tier.burst, b.tokens + ((this.now() - b.at) / 1000) * tier.perSecond);
  }

  /** Full buckets carry no information: drop them so memory stays bounded. */
  private sweep(tier: RateLimitTier): void {
    const now = this.now();
    for (const [key, b] of this.buckets) if (b.tokens + ((now - b.at) / 1000) * tier.perSecond >= tier.burst) this.buckets.delete(key);
  }

  async close(): Promise<void> {}
}

// Atomic in Redis, on Redis's clock, so every API process draws on the same bucket.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local d = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(d[1]) or burst
local at = tonumber(d[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if ARGV[3] == '1' and tokens >= 1 then tokens = tokens - 1 allowed = 1 end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
end
return { allowed, tostring(tokens) }
`;

export class RedisBuckets implements BucketBackend {
  constructor(private readonly redis: Redis, private readonly prefix = 'crm:ratelimit:') {}

  private async run(key: string, tier: RateLimitTier, take: boolean): Promise<BucketResult> {
    const [allowed, tokens] = (await this.redis.eval(TAKE, 1, this.prefix + key, tier.perSecond, tier.burst, take ? '1' : '0')) as [number, string];
    return { allowed: allowed === 1, tokens: Number(tokens) };
  }

  take(key: string, tier: RateLimitTier): Promise<BucketResult> {
    return this.run(key, tier, true);
  }

  async peek(key: string, tier: RateLimitTier): Promise<number> {
    return (await this.run(key, tier, false)).tokens;
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/**
 * graphql-rate-limit asks its Store for the timestamps of recent calls and denies when there are
 * `max` of them. This store answers from a token bucket instead: no timestamps when a token was
 * taken, `max` of them when the bucket is empty. The bucket outcome is kept for the response headers.
 */
class BucketStore implements Store {
  readonly outcomes = new Map<string, BucketResult>();
  constructor(private readonly backend: BucketBackend, private readonly tiers: Readonly<Record<string, RateLimitTier>>) {}

  async getForIdentity(identity: { contextIdentity: string }): Promise<readonly number[]> {
    const [tierName, bucketKey, chargeId] = identity.contextIdentity.split('|');
    const tier = this.tiers[tierName];
    const result = await this.backend.take(bucketKey, tier);
    this.outcomes.set(chargeId, result);
    return result.allowed ? [] : new Array<number>(tier.burst).fill(Date.now());
  }

  setForIdentity(): void {
    // The bucket was updated atomically in getForIdentity.
  }
}

export interface RateLimiter {
  charge(ctx: RequestContext, info: Parameters<GraphQLFieldResolver<unknown, unknown>>[3], args: Record<string, unknown>): Promise<void>;
  /** `null`: no viewer known yet (a 401 or unreadable request): the user tier, full. */
  peek(ctx: Pick<RequestContext, 'viewer'> | null): Promise<RateState>;
  close(): Promise<void>;
}

export function createRateLimiter(backend: BucketBackend, tiers: { user: RateLimitTier; app: RateLimitTier }): RateLimiter {
  const store = new BucketStore(backend, tiers);
  const tierOf = (ctx: Pick<RequestContext, 'viewer'>) => (ctx.viewer.appId ? 'app' : 'user');
  const bucketOf = (ctx: Pick<RequestContext, 'viewer'>) => (ctx.viewer.appId ? `a${ctx.viewer.appId}:u${ctx.viewer.userId}` : `u${ctx.viewer.userId}`);
  // Outcomes are keyed per charge, not by request id: a caller may send the same X-Request-Id on
  // concurrent requests, and with Redis their outcomes could otherwise be read crosswise.
  let charges = 0;
  const limiter = getGraphQLRateLimiter({
    identifyContext: (c: { viewer: Viewer; chargeId: string }) => `${tierOf(c)}|${bucketOf(c)}|${c.chargeId}`,
    store,
  });
  const state = (tier: RateLimitTier, tokens: number, allowed: boolean): RateState => {
    const nowS = Date.now() / 1000;
    return {
      limit: tier.burst,
      remaining: Math.max(0, Math.floor(tokens)),
      reset: Math.ceil(nowS + (tier.burst - tokens) / tier.perSecond),
      retryAfter: allowed ? undefined : Math.max(1, Math.ceil((1 - tokens) / tier.perSecond)),
    };
  };
  return {
    async charge(ctx, info, args) {
      const tier = tiers[tierOf(ctx)];
      const chargeId = String((charges = (charges + 1) % Number.MAX_SAFE_INTEGER));
      const denied = await limiter({ parent: undefined, args, context: { viewer: ctx.viewer, chargeId }, info }, { max: tier.burst, window: '1s', readOnly: true });
      const outcome = store.outcomes.get(chargeId) ?? { allowed: !denied, tokens: 0 };
      store.outcomes.delete(chargeId);
      ctx.rate = state(tier, outcome.tokens, !denied);
      if (denied) throw new RateLimitedError(ctx.rate.retryAfter ?? 1);
    },
    async peek(ctx) {
      if (!ctx) return state(tiers.user, tiers.user.burst, true);
      const tier = tiers[tierOf(ctx)];
      return state(tier, await backend.peek(bucketOf(ctx), tier), true);
    },
    close: () => backend.close(),
  };
}

/**
 * Charges each operation once, on its first root field, for Query and Mutation alike. Only root
 * fields are wrapped, so nested fields keep graphql's default (fast) resolvers.
 */
export function applyRateLimit(schema: GraphQLSchema, limiter: RateLimiter): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!(type instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = async (source, args, ctx: RequestContext, info) => {
        ctx.rateCharge ??= limiter.charge(ctx, info, args);
        await ctx.rateCharge;
        return resolve(source, args, ctx, info);
      };
    }
  }
  return schema;
}
