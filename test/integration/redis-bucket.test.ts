import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisBuckets } from '../../src/graphql/rate-limit';
import { describeWithRedis, startTestServer, type TestServer } from '../support/test-server';

/**
 * The shared (Redis) bucket's script, with bucket states prepared directly in Redis: a bucket
 * that has been idle for an hour is made by writing an `at` an hour back, not by waiting.
 */
describeWithRedis('Redis token bucket', () => {
  const tier = { perSecond: 5, burst: 10 };
  const prefix = `crmtest:${randomBytes(4).toString('hex')}:`;
  let redis: Redis;
  let buckets: RedisBuckets;

  beforeAll(() => {
    redis = new Redis(process.env.TEST_REDIS_URL as string);
    buckets = new RedisBuckets(new Redis(process.env.TEST_REDIS_URL as string), `${prefix}rl:`);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await buckets.close();
  });

  /** Redis's own clock (the script's), in milliseconds. */
  const redisNow = async () => {
    const [s, us] = await redis.time();
    return Number(s) * 1000 + Math.floor(Number(us) / 1000);
  };
  const prepare = async (key: string, tokens: number, at: number) => redis.hset(`${prefix}rl:${key}`, 'tokens', String(tokens), 'at', String(at));

  it('a new key starts full and counts down', async () => {
    expect(await buckets.peek('fresh', tier)).toBe(10);
    expect(await buckets.take('fresh', tier)).toEqual({ allowed: true, tokens: expect.closeTo(9, 1) });
    const ttl = await redis.pttl(`${prefix}rl:fresh`);
    // Kept only as long as a refill to full takes (plus a second).
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3000);
  });

  it('after a long idle time the bucket holds burst tokens, never more', async () => {
    // A token a minute: eleven takes on a loaded machine never see one come back mid-test.
    const slow = { perSecond: 1 / 60, burst: 10 };
    await prepare('idle', 3, (await redisNow()) - 3_600_000);
    expect(await buckets.peek('idle', slow)).toBe(10);
    const taken = await buckets.take('idle', slow);
    expect(taken.allowed).toBe(true);
    expect(taken.tokens).toBeCloseTo(9, 1);
    expect(taken.tokens).toBeLessThanOrEqual(9);
    // Ten more back-to-back: nine pass, the tenth is refused (no tokens hoarded while idle).
    const next = [];
    for (let i = 0; i < 10; i++) next.push((await buckets.take('idle', slow)).allowed);
    expect(next.filter(Boolean).length).toBe(9);
    expect(next[9]).toBe(false);
  });

  it('an empty bucket refuses, refilling at perSecond from the stored time', async () => {
    await prepare('empty', 0, await redisNow());
    expect((await buckets.take('empty', tier)).allowed).toBe(false);
    // Half a second ago at zero: two and a half tokens now.
    await prepare('half', 0, (await redisNow()) - 500);
    const r = await buckets.take('half', tier);
    expect(r.allowed).toBe(true);
    expect(r.tokens).toBeGreaterThanOrEqual(1.5);
    expect(r.tokens).toBeLessThan(2);
  });

  it('a stored time in the future (another clock) refills nothing', async () => {
    await prepare('future', 4, (await redisNow()) + 60_000);
    expect(await buckets.take('future', tier)).toEqual({ allowed: true, tokens: 3 });
  });

  it('peek takes nothing', async () => {
    await prepare('peek', 4, (await redisNow()) + 60_000);
    expect(await buckets.peek('peek', tier)).toBe(4);
    expect(await buckets.peek('peek', tier)).toBe(4);
    expect(await redis.hget(`${prefix}rl:peek`, 'tokens')).toBe('4');
  });
});

describeWithRedis('Redis token bucket behind the API', () => {
  let server: TestServer;
  const prefix = `crmtest:${randomBytes(4).toString('hex')}:`;
  let redis: Redis;

  beforeAll(async () => {
    server = await startTestServer({
      REDIS_URL: process.env.TEST_REDIS_URL as string,
      REDIS_PREFIX: prefix,
      RATE_LIMIT_PER_SECOND: '5',
      RATE_LIMIT_BURST: '10',
    });
    redis = new Redis(process.env.TEST_REDIS_URL as string);
  }, 60_000);
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await server?.close();
  });

  it('a user idle for an hour gets a full bucket of 10, not the hour’s refill', async () => {
    const { admin } = await server.createAccount();
    const [s] = await redis.time();
    await redis.hset(`${prefix}ratelimit:u${admin.id}`, 'tokens', '0', 'at', String(Number(s) * 1000 - 3_600_000));
    const res = await server.request('GET', '/api/v3/companies.json', { apiKey: admin.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('9');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await server.request('GET', '/api/v3/companies.json', { apiKey: admin.apiKey })).status);
    // Nine more pass; the tenth can only pass if a token refilled meanwhile (5 per second).
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(200));
  });
});
