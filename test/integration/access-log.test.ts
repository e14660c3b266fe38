import { setLogLevel, setLogSink } from '../../src/common/logger';
import { startTestServer, type TestServer } from '../support/test-server';

/** One access line a request: method, full path and status, never the query string or a key. */

const COMPANIES = '{ companies { nodes { id } } }';

describe('access log', () => {
  let server: TestServer;
  let key: string;
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];

  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
    setLogLevel('info');
    setLogSink((line) => {
      lines.push(JSON.parse(line));
      for (const wake of waiting.splice(0)) wake();
    });
  }, 60_000);
  afterAll(async () => {
    setLogSink(null);
    setLogLevel((process.env.LOG_LEVEL as 'error') ?? 'error');
    await server?.close();
  });

  const requestLines = (requestId: string | null) => lines.filter((l) => l.message === 'request' && l.requestId === requestId);
  /** The access line is written on the response's 'finish', which may come after the client has read it. */
  async function logged(requestId: string | null): Promise<Array<Record<string, unknown>>> {
    while (requestLines(requestId).length === 0) await new Promise<void>((wake) => waiting.push(wake));
    return requestLines(requestId);
  }

  it('names the full path, mount prefix included, and never the query string', async () => {
    const v3 = await server.v3(key).get('/companies.json', { page: 2 });
    const gql = await server.graphql(key, COMPANIES);
    const missing = await server.request('GET', '/api/v3/nothing-here.json', { apiKey: key, query: { q: 'secret' } });
    expect(await logged(v3.headers.get('x-request-id'))).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v3/companies.json', status: 200 })]);
    expect(await logged(gql.headers.get('x-request-id'))).toEqual([expect.objectContaining({ method: 'POST', path: '/graphql', status: 200 })]);
    expect(await logged(missing.headers.get('x-request-id'))).toEqual([expect.objectContaining({ path: '/api/v3/nothing-here.json', status: 404 })]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(key);
    expect(text).not.toContain('page=2');
    expect(text).not.toContain('secret');
  });
});
