import { ConfigError, loadConfig } from '../../src/config/config';
import { startTestServer, type TestServer } from '../support/test-server';

/** Browsers: CORS on /graphql and /api/v3, configurable origins, never credentials by cookie. */
describe('CORS', () => {
  describe('CORS_ORIGINS', () => {
    it('defaults to any origin in development and none in production; takes * or exact origins', () => {
      expect(loadConfig({}).corsOrigins).toBe('*');
      expect(loadConfig({ NODE_ENV: 'production' }).corsOrigins).toEqual([]);
      expect(loadConfig({ NODE_ENV: 'production', CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
      expect(loadConfig({ CORS_ORIGINS: ' https://app.example.com , http://localhost:5173' }).corsOrigins).toEqual([
        'https://app.example.com',
        'http://localhost:5173',
      ]);
    });

    it('refuses what is not an origin, naming it', () => {
      for (const bad of ['app.example.com', 'https://app.example.com/', 'https://app.example.com/path', 'ftp://files.example.com', 'https://*.example.com']) {
        expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(ConfigError);
        expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(bad);
      }
    });
  });

  describe('with a list of origins', () => {
    let server: TestServer;
    let key: string;
    const APP = 'https://app.example.com';
    beforeAll(async () => {
      server = await startTestServer({ CORS_ORIGINS: `${APP},http://localhost:5173` });
      key = (await server.createAccount()).admin.apiKey;
    }, 60_000);
    afterAll(() => server.close());

    const preflight = (path: string, origin: string, method = 'POST') =>
      fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
      });

    it.each(['/graphql', '/api/v3/people.json', '/api/v3/companies/1.json'])(
      'answers the preflight of %s for an allowed origin, without a key and without credentials',
      async (path) => {
        const res = await preflight(path, APP, path === '/graphql' ? 'POST' : 'PUT');
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(APP);
        expect(res.headers.get('access-control-allow-methods')).toContain(path === '/graphql' ? 'POST' : 'PUT');
        expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toEqual(expect.stringContaining('authorization'));
        expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toEqual(expect.stringContaining('content-type'));
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
        expect(res.headers.get('vary')).toContain('Origin');
      },
    );

    it('refuses the preflight of another origin, with no CORS header', async () => {
      for (const path of ['/graphql', '/api/v3/people.json']) {
        const res = await preflight(path, 'https://evil.example.net');
        expect(res.status).toBe(403);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('lets an allowed page read the answer and the rate-limit headers; another origin gets no CORS header', async () => {
      const gql = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { origin: APP, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { databaseId } }' }),
      });
      expect(gql.status).toBe(200);
      expect(gql.headers.get('access-control-allow-origin')).toBe(APP);
      expect(gql.headers.get('access-control-expose-headers')).toEqual(expect.stringContaining('X-Ratelimit-Remaining'));
      expect(gql.headers.get('access-control-allow-credentials')).toBeNull();
      const v3 = await fetch(`${server.url}/api/v3/people.json`, { headers: { origin: APP, 'x-api-key': key } });
      expect(v3.status).toBe(200);
      expect(v3.headers.get('access-control-allow-origin')).toBe(APP);
      const other = await fetch(`${server.url}/api/v3/people.json`, { headers: { origin: 'https://evil.example.net', 'x-api-key': key } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('keeps Apollo CSRF prevention: a simple (form-like) GraphQL GET without a preflight header is refused', async () => {
      const res = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ viewer { databaseId } }')}`, {
        headers: { origin: APP, authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('any origin (development default)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    }, 60_000);
    afterAll(() => server.close());

    it('answers * to any origin, never with credentials', async () => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:3001', 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    });
  });
});
