import { MemoryBuckets } from '../../src/graphql/rate-limit';

/** The in-process token bucket on an injected clock: no waiting on the real one. */
describe('MemoryBuckets', () => {
  const tier = { perSecond: 5, burst: 10 };
  let now: number;
  let buckets: MemoryBuckets;

  beforeEach(() => {
    now = 1_000_000;
    buckets = new MemoryBuckets(() => now);
  });

  const drain = async (key: string, n: number) => {
    const results = [];
    for (let i = 0; i < n; i++) results.push(await buckets.take(key, tier));
    return results;
  };

  it('a new key starts full: burst takes pass, the next is refused', async () => {
    expect(await buckets.peek('k', tier)).toBe(10);
    const results = await drain('k', 11);
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(results.map((r) => r.tokens)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    expect(await buckets.peek('k', tier)).toBe(0);
  });

  it('refills at perSecond, fractionally', async () => {
    await drain('k', 10);
    now += 100; // half a token
    expect(await buckets.peek('k', tier)).toBeCloseTo(0.5, 10);
    expect(await buckets.take('k', tier)).toEqual({ allowed: false, tokens: expect.closeTo(0.5, 10) });
    now += 100;
    expect(await buckets.take('k', tier)).toEqual({ allowed: true, tokens: expect.closeTo(0, 10) });
    now += 1000;
    expect((await drain('k', 6)).map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
  });

  it('a steady perSecond never runs dry, even with half the bucket spent', async () => {
    await drain('k', 5);
    for (let i = 0; i < 50; i++) {
      now += 200;
      expect(await buckets.take('k', tier)).toEqual({ allowed: true, tokens: expect.closeTo(5, 10) });
    }
  });

  it('after a long idle time the bucket is full, never beyond burst', async () => {
    await drain('k', 3);
    now += 3_600_000;
    expect(await buckets.peek('k', tier)).toBe(10);
    const results = await drain('k', 11);
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(results[0].tokens).toBe(9);
  });

  it('keys are independent', async () => {
    await drain('a', 10);
    expect(await buckets.take('b', tier)).toEqual({ allowed: true, tokens: 9 });
    expect((await buckets.take('a', tier)).allowed).toBe(false);
  });

  it('a refused take costs nothing', async () => {
    await drain('k', 10);
    await drain('k', 5);
    now += 200;
    expect(await buckets.take('k', tier)).toEqual({ allowed: true, tokens: expect.closeTo(0, 10) });
  });

  it('sweeps full buckets once it holds more than 100 000 keys, keeping the ones in use', async () => {
    const map = (buckets as unknown as { buckets: Map<string, unknown> }).buckets;
    for (let i = 0; i < 99_999; i++) map.set(`idle${i}`, { tokens: 10, at: now });
    await drain('busy', 10);
    expect(map.size).toBe(100_000);
    await buckets.take('one-more', tier);
    // Every full bucket went; the drained and the just-used ones stay.
    expect([...map.keys()].sort()).toEqual(['busy', 'one-more']);
    expect((await buckets.take('busy', tier)).allowed).toBe(false);
  });
});
