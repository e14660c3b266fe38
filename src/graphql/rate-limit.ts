import { GraphQLObjectType, defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../common/errors';
import { rateLimitRefusals } from '../common/metrics';
import type { RateLimitTier } from '../config/config';
import type { RateState, RequestContext } from '../context/context';

/** Outcome of taking tokens from a bucket. */
export interface BucketResult {
  readonly allowed: boolean;
  readonly tokens: number;
}

/**
 * The service's overall limit, its own: a token bucket per identity, `burst` back-to-back calls,
 * refilled at `perSecond` (DECISIONS: Auth and rate limit). `take` takes `n` tokens at once, or none when fewer are left (a GraphQL
 * operation's cost; a v3 request takes 1).
 */
export interface BucketBackend {
  take(key: string, tier: RateLimitTier, n?: number): Promise<BucketResult>;
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

  async take(key: string, tier: RateLimitTier, n = 1): Promise<BucketResult> {
    const b = this.refill(key, tier, this.now());
    const allowed = b.tokens >= n;
    if (allowed) b.tokens -= n;
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

// Atomic in Redis, on Redis's clock, so every API process draws on the same bucket. ARGV[3]: the
// tokens to take (all or none), or -1 to only read the bucket.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local d = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(d[1]) or burst
local at = tonumber(d[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local n = tonumber(ARGV[3])
local allowed = 0
if n >= 0 and tokens >= n then tokens = tokens - n allowed = 1 end
if n >= 0 then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
end
return { allowed, tostring(tokens) }
`;

export class RedisBuckets implements BucketBackend {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'crm:ratelimit:',
  ) {}

  private async run(key: string, tier: RateLimitTier, n: number): Promise<BucketResult> {
    const [allowed, tokens] = (await this.redis.eval(TAKE, 1, this.prefix + key, tier.perSecond, tier.burst, String(n))) as [number, string];
    return { allowed: allowed === 1, tokens: Number(tokens) };
  }

  take(key: string, tier: RateLimitTier, n = 1): Promise<BucketResult> {
    return this.run(key, tier, Math.max(0, n));
  }

  async peek(key: string, tier: RateLimitTier): Promise<number> {
    return (await this.run(key, tier, -1)).tokens;
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

export interface RateLimiter {
  /**
   * Takes `cost` tokens from the viewer's bucket, all or none, and records the outcome in
   * `ctx.rate`; throws RateLimitedError (429) when the bucket lacks them.
   */
  charge(ctx: RequestContext, cost: number): Promise<void>;
  /**
   * Every authenticated request takes 1 when it arrives, whatever it answers (a 404, a 422, a
   * validation failure, an introspection): `ctx.rateCharge` is set, so the operation it runs is
   * not charged again, and a /graphql operation costing more is charged only the rest.
   */
  admit(ctx: RequestContext): Promise<void>;
  /** The most one operation may cost for this viewer: their bucket's burst (more could never be paid). */
  capacity(ctx: Pick<RequestContext, 'viewer'>): number;
  /** `null`: no viewer known yet (a 401 or unreadable request): the user tier, full. */
  peek(ctx: Pick<RequestContext, 'viewer'> | null): Promise<RateState>;
  close(): Promise<void>;
}

export function createRateLimiter(backend: BucketBackend, tiers: { user: RateLimitTier; app: RateLimitTier }): RateLimiter {
  const tierOf = (ctx: Pick<RequestContext, 'viewer'>) => tiers[ctx.viewer.appId ? 'app' : 'user'];
  const bucketOf = (ctx: Pick<RequestContext, 'viewer'>) => (ctx.viewer.appId ? `a${ctx.viewer.appId}:u${ctx.viewer.userId}` : `u${ctx.viewer.userId}`);
  const state = (tier: RateLimitTier, tokens: number, allowed: boolean, cost = 1): RateState => {
    const nowS = Date.now() / 1000;
    return {
      limit: tier.burst,
      remaining: Math.max(0, Math.floor(tokens)),
      reset: Math.ceil(nowS + (tier.burst - tokens) / tier.perSecond),
      retryAfter: allowed ? undefined : Math.max(1, Math.ceil((cost - tokens) / tier.perSecond)),
    };
  };
  return {
    async charge(ctx, cost) {
      const tier = tierOf(ctx);
      // Each charge's own outcome, so concurrent requests (even sharing an X-Request-Id) report their own.
      const { allowed, tokens } = await backend.take(bucketOf(ctx), tier, cost);
      ctx.rate = { ...state(tier, tokens, allowed, cost), cost: { requested: cost, charged: allowed ? cost : 0 } };
      if (!allowed) {
        rateLimitRefusals.inc({ limit: 'requests' });
        throw new RateLimitedError(ctx.rate.retryAfter ?? 1);
      }
    },
    async admit(ctx) {
      ctx.rateCharge = this.charge(ctx, 1);
      await ctx.rateCharge;
    },
    capacity(ctx) {
      return tierOf(ctx).burst;
    },
    async peek(ctx) {
      if (!ctx) return state(tiers.user, tiers.user.burst, true);
      const tier = tierOf(ctx);
      return state(tier, await backend.peek(bucketOf(ctx), tier), true);
    },
    close: () => backend.close(),
  };
}

/**
 * Charges each operation once, on its first root field, for Query and Mutation alike: 1 token, what
 * a v3 request costs (the facade's operations run through here). /graphql charges its operation's
 * cost before execution and sets `ctx.rateCharge`, so nothing more is taken here. Only root fields
 * are wrapped, so nested fields keep graphql's default (fast) resolvers. Fields with a windowed
 * limit of their own (field-rate-limit.ts) are checked after this charge.
 */
export function applyRateLimit(schema: GraphQLSchema, limiter: RateLimiter): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!(type instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = async (source, args, ctx: RequestContext, info) => {
        ctx.rateCharge ??= limiter.charge(ctx, 1);
        await ctx.rateCharge;
        return resolve(source, args, ctx, info);
      };
    }
  }
  return schema;
}
