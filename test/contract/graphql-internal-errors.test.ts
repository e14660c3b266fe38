import { logger } from '../../src/common/logger';
import { openServerWithAccount, type TestServer } from '../support/test-server';

/** An unexpected failure inside a resolver is masked for the client and logged with the request id. */
describe('GraphQL internal errors', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    ({ server, key } = await openServerWithAccount());
  }, 60_000);
  afterAll(() => server.close());

  it('an unexpected failure answers "Internal error" (not an unlogged "Internal server error") and is logged with the request id', async () => {
    const spy = jest.spyOn(logger, 'error');
    await server.sql('alter table list_items rename to list_items_away');
    try {
      const res = await server.graphql(key, '{ leadSources { nodes { id } } }', undefined, { 'x-request-id': 'probe-masked-1' });
      expect(res.headers.get('x-request-id')).toBe('probe-masked-1');
      expect(res.body.errors).toEqual([{ message: 'Internal error', path: ['leadSources'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
      expect(res.text).not.toMatch(/list_items/);
      const logged = spy.mock.calls.filter(([message]) => message === 'unhandled error');
      expect(logged).toHaveLength(1);
      expect(logged[0][1]).toEqual(expect.objectContaining({ requestId: 'probe-masked-1', error: expect.stringContaining('list_items') }));
      spy.mockClear();
      const v3 = await server.request('GET', '/api/v3/admin/lead_sources.json', { apiKey: key, headers: { 'x-request-id': 'probe-masked-2' } });
      expect(v3.status).toBe(500);
      expect(spy.mock.calls.some(([, fields]) => (fields as { requestId?: string } | undefined)?.requestId === 'probe-masked-2')).toBe(true);
    } finally {
      await server.sql('alter table list_items_away rename to list_items');
      spy.mockRestore();
    }
  });
});
