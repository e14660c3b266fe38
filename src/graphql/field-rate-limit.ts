import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultFieldResolver, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { getFieldIdentity, getGraphQLRateLimiter, type Identity, type Store } from 'graphql-rate-limit';
import type { Redis } from 'ioredis';
import { Extensions } from 'type-graphql';
import { RateLimitedError } from '../common/errors';
import { rateLimitRefusals } from '../common/metrics';
import { ConfigError, parseWindow, type FieldRateLimit } from '../config/config';
import type { RequestContext } from '../context/context';

const RATE_LIMIT = 'rateLimit';

type LimitedField = GraphQLField<unknown, RequestContext>;

/**
 * Per-field limits with windows, on expensive operations (creating a document makes the worker fetch
 * a URL; resetting a public link rewrites it), by graphql-rate-limit: at most `max` calls per user
 * within any `window`, on the shared Redis when there is one. They come on top of the overall token
 * bucket (rate-limit.ts), which every request draws on.
 *
 * Declared where the field is: `@RateLimit({ max: 30, window: '1m' })` above its `@Mutation`. The
 * limit is kept in the field's extensions (not in the SDL) and applied to the built schema by
 * applyFieldRateLimits, so each server's schema checks it on that server's store.
 */
export function RateLimit(limit: FieldRateLimit) {
  return Extensions({ [RATE_LIMIT]: limit });
}

/** Every field declaring a limit, by `Type.field`. */
export function declaredRateLimits(schema: GraphQLSchema): Map<string, { field: LimitedField; limit: FieldRateLimit }> {
  const declared = new Map<string, { field: LimitedField; limit: FieldRateLimit }>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const limit = (field.extensions as { [RATE_LIMIT]?: FieldRateLimit } | undefined)?.[RATE_LIMIT];
      if (limit) declared.set(`${type.name}.${field.name}`, { field, limit });
    }
  }
  return declared;
}

/**
 * graphql-rate-limit's Store (the timestamps of one user's recent calls of one field), plus what its
 * read-then-write needs to stay exact under concurrency: the limiter reads the timestamps, decides,
 * then writes them back, so two calls interleaving there would both count from the same list and
 * one call would be lost from the window.
 */
export interface WindowStore extends Store {
  /** Runs `fn` (one limiter call: its read and its write of `key`) with no other call on `key` in between. */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** Calls on one key, one after the other, in this process. */
class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => turn);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

const keyOf = (identity: Identity) => `${identity.contextIdentity}:${identity.fieldIdentity}`;

/** One process's windows, when there is no Redis. */
export class MemoryWindowStore implements WindowStore {
  private readonly windows = new Map<string, { timestamps: readonly number[]; expires: number }>();
  private readonly queue = new KeyedQueue();

  getForIdentity(identity: Identity): readonly number[] {
    const window = this.windows.get(keyOf(identity));
    return window && window.expires > Date.now() ? window.timestamps : [];
  }

  setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 0): void {
    if (timestamps.length === 0) this.windows.delete(keyOf(identity));
    else this.windows.set(keyOf(identity), { timestamps: [...timestamps], expires: Math.max(...timestamps) + windowMs });
    // Expired windows carry no information: drop them so memory stays bounded.
    if (this.windows.size > 10_000) for (const [key, w] of this.windows) if (w.expires <= Date.now()) this.windows.delete(key);
  }

  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(key, fn);
  }
}

// Deletes the lock only if it is still this holder's (it may have expired and been taken since).
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * The windows on Redis, shared by every API process using it: a JSON list of timestamps per user and
 * field, expiring with its newest call's window. A limiter call holds a lock on its key in Redis (and
 * queues behind this process's own calls first), so calls through different processes count exactly.
 * The connection is the caller's, closed by it.
 */
export class RedisWindowStore implements WindowStore {
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** A lock outlives a process that died holding it by at most this. */
    private readonly lockMs = 2000,
    /** Waiting longer than this for a lock answers "retry in a second". */
    private readonly waitMs = 5000,
  ) {}

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const raw = await this.redis.get(`${this.prefix}calls:${keyOf(identity)}`);
    return raw ? (JSON.parse(raw) as number[]) : [];
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 0): Promise<void> {
    const key = `${this.prefix}calls:${keyOf(identity)}`;
    if (timestamps.length === 0) await this.redis.del(key);
    else await this.redis.set(key, JSON.stringify(timestamps), 'PX', Math.max(1, Math.max(...timestamps) + windowMs - Date.now()));
  }

  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(key, async () => {
      const lock = `${this.prefix}lock:${key}`;
      const token = randomBytes(8).toString('hex');
      // performance.now, not Date: a test may freeze the wall clock.
      const deadline = performance.now() + this.waitMs;
      while ((await this.redis.set(lock, token, 'PX', this.lockMs, 'NX')) !== 'OK') {
        if (performance.now() > deadline) throw new RateLimitedError(1, 'Too many concurrent calls');
        await sleep(5 + Math.random() * 10);
      }
      try {
        return await fn();
      } finally {
        await this.redis.eval(UNLOCK, 1, lock, token);
      }
    });
  }
}

/**
 * Wraps every field declaring a limit (declaredRateLimits) so that, before its resolver runs, the
 * call is counted by graphql-rate-limit in the user's window for that field. Beyond `max` calls in
 * the window: RateLimitedError (GraphQL `RATE_LIMITED` with `retryAfter`, v3 429 with Retry-After),
 * and the refused call is not counted (`uncountRejected`), so the retry time is honest.
 * `overrides`: config.fieldRateLimits, by `Type.field`.
 */
export function applyFieldRateLimits(schema: GraphQLSchema, store: WindowStore, overrides: Readonly<Record<string, FieldRateLimit>> = {}): GraphQLSchema {
  const declared = declaredRateLimits(schema);
  for (const name of Object.keys(overrides)) {
    if (!declared.has(name)) throw new ConfigError(`FIELD_RATE_LIMITS: ${name} declares no rate limit (those that do: ${[...declared.keys()].join(', ')})`);
  }
  const identifyContext = (ctx: RequestContext) => `u${ctx.viewer.userId}`;
  const limiter = getGraphQLRateLimiter({
    store,
    identifyContext,
    formatError: ({ fieldName, max, window }) => `${fieldName} is limited to ${max} calls per user in ${window / 1000} s`,
  });
  const fieldNames = new Map<string, string>();
  for (const [name, { field, limit: declaredLimit }] of declared) {
    // graphql-rate-limit keys a window by the field's name alone.
    const twin = fieldNames.get(field.name);
    if (twin) throw new Error(`${twin} and ${name} both declare a rate limit: graphql-rate-limit would count them in one window`);
    fieldNames.set(field.name, name);
    const limit = overrides[name] ?? declaredLimit;
    const ms = parseWindow(limit.window);
    if (ms === undefined || !Number.isInteger(limit.max) || limit.max < 1)
      throw new Error(`${name}: a rate limit needs a whole max >= 1 and a window like 30s, 1m, 1h`);
    const options = { max: limit.max, window: limit.window, uncountRejected: true };
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = async (source, args, ctx, info) => {
      const identity = { contextIdentity: identifyContext(ctx), fieldIdentity: getFieldIdentity(info.fieldName, [], args) };
      const refused = await store.exclusive(keyOf(identity), async () => {
        const message = await limiter({ parent: source, args, context: ctx, info }, options);
        return message === undefined ? undefined : new RateLimitedError(await retryAfter(store, identity, limit.max, ms), message);
      });
      if (refused) {
        rateLimitRefusals.inc({ limit: 'field' });
        throw refused;
      }
      return resolve(source, args, ctx, info);
    };
  }
  return schema;
}

/** Seconds until the window holds fewer than `max` calls: when its (length - max + 1)th oldest call leaves it. */
async function retryAfter(store: Store, identity: Identity, max: number, windowMs: number): Promise<number> {
  const now = Date.now();
  const calls = (await store.getForIdentity(identity)).filter((t) => t + windowMs > now).sort((a, b) => a - b);
  const frees = calls.length >= max ? calls[calls.length - max] + windowMs : now;
  return Math.max(1, Math.ceil((frees - now) / 1000));
}
