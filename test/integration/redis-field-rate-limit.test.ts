import { randomBytes } from 'node:crypto';
import { GraphQLBoolean, GraphQLObjectType, GraphQLSchema, graphql } from 'graphql';
import { Redis } from 'ioredis';
import { applyFieldRateLimits, RedisWindowStore } from '../../src/graphql/field-rate-limit';
import { describeWithRedis, serversSharingRedis } from '../support/test-server';

/**
 * Per-field windows (graphql-rate-limit) on the shared Redis: limiter instances with their own
 * connections, as in separate API processes, count one user's calls of a field in one window.
 */
describeWithRedis('per-field rate limits on Redis', () => {
  const prefix = `crmtest:${randomBytes(4).toString('hex')}:fieldlimit:`;
  const connections: Redis[] = [];
  let redis: Redis;

  const connect = () => {
    const connection = new Redis(process.env.TEST_REDIS_URL as string);
    connections.push(connection);
    return connection;
  };
  /** One API process's limiter: its own Redis connection, store and schema. */
  const instance = (options: { lockMs?: number; waitMs?: number } = {}) => {
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean, resolve: () => true } } }),
      mutation: new GraphQLObjectType({
        name: 'Mutation',
        fields: { expensive: { type: GraphQLBoolean, extensions: { rateLimit: { max: 4, window: '1m' } }, resolve: () => true } },
      }),
    });
    applyFieldRateLimits(schema, new RedisWindowStore(connect(), prefix, options.lockMs, options.waitMs));
    return (userId: number) => graphql({ schema, source: 'mutation { expensive }', contextValue: { viewer: { userId } } });
  };

  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('two limiter instances share one window per user and field, kept only as long as the window', async () => {
    const [a, b] = [instance(), instance()];
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await (i % 2 ? b : a)(1));
    expect(results.map((r) => r.data?.expensive)).toEqual([true, true, true, true, null, null]);
    expect(results[4].errors?.[0].message).toMatch(/^expensive is limited to 4 calls per user in 60 s: retry in (59|60) s$/);
    expect((await b(2)).data).toEqual({ expensive: true });
    const ttl = await redis.pttl(`${prefix}calls:u1:expensive`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await redis.keys(`${prefix}lock:*`)).toEqual([]);
  });

  it('concurrent calls through both instances are counted exactly', async () => {
    const [a, b] = [instance(), instance()];
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a)(3)));
    expect(results.filter((r) => r.data?.expensive === true)).toHaveLength(4);
    expect(results.filter((r) => r.errors?.[0].message.startsWith('expensive is limited'))).toHaveLength(8);
  });

  it('a lock left by a process that died expires; one held too long answers "retry in a second"', async () => {
    await redis.set(`${prefix}lock:u4:expensive`, 'dead process', 'PX', 100);
    expect((await instance()(4)).data).toEqual({ expensive: true });
    await redis.set(`${prefix}lock:u5:expensive`, 'slow process', 'PX', 10_000);
    const refused = await instance({ waitMs: 50 })(5);
    expect(refused.errors?.[0].message).toBe('Too many concurrent calls: retry in 1 s');
    expect(refused.errors?.[0].originalError).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect(await redis.get(`${prefix}lock:u5:expensive`)).toBe('slow process');
  });
});

describeWithRedis('per-field rate limits across API processes (Redis)', () => {
  const servers = serversSharingRedis({ FIELD_RATE_LIMITS: 'Mutation.createDocument=4/1m' });

  it('one window for createDocument over GraphQL and v3 on both servers', async () => {
    const [a, b] = [servers.a(), servers.b()];
    const { admin } = await a.createAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 ? b : a;
      const url = `https://files.example.test/shared-${i}.pdf`;
      const res =
        i % 3 === 0
          ? await server.v3(admin.apiKey).post('/documents.json', { document: { url } })
          : await server.graphql(admin.apiKey, 'mutation($url: String!) { createDocument(input: {url: $url}) { document { databaseId } } }', { url });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await a.graphql(
      admin.apiKey,
      'mutation { createDocument(input: {url: "https://files.example.test/late.pdf"}) { document { databaseId } } }',
    );
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    const v3 = await b.v3(admin.apiKey).post('/documents.json', { document: { url: 'https://files.example.test/later.pdf' } });
    expect(v3.status).toBe(429);
    expect(v3.body).toEqual({ error: expect.stringMatching(/^Rate limit exceeded\. Retry in \d+ second\(s\)\.$/) });
    expect((await a.sql('select id from documents where owner_id = ?', [admin.id])).length).toBe(4);
  });
});
