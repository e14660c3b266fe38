import { describeWithRedis, serversSharingRedis } from '../support/test-server';

/**
 * Two API processes sharing one Redis draw on one budget per user (issue 2 §6). Both servers run in
 * this process but each has its own limiter and Redis connection, exactly as two processes would.
 */
describeWithRedis('rate limit across API processes (Redis)', () => {
  const servers = serversSharingRedis({
    // A token a minute: twelve requests on a loaded machine never see one come back mid-test.
    RATE_LIMIT_PER_SECOND: '0.0167',
    RATE_LIMIT_BURST: '10',
  });

  it('lets 10 back-to-back requests through across both processes, then answers 429', async () => {
    const [a, b] = [servers.a(), servers.b()];
    const { admin } = await a.createAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push((await server.request('GET', '/api/v3/companies.json', { apiKey: admin.apiKey })).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await b.request('GET', '/api/v3/companies.json', { apiKey: admin.apiKey });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body).toEqual({ error: expect.any(String) });
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
