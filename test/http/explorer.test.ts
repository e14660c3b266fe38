import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { readDemoKey, saveDemoKey } from '../../src/db/demo-key';
import { EXAMPLES } from '../../src/http/explorer/examples';
import { startTestServer, type TestServer } from '../support/test-server';

/** The explorers: self-hosted GraphiQL (offline, no telemetry) and the demo key, for local eyes only. */
describe('explorer', () => {
  const committed = buildSchema(readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));

  it('its example operations are valid against the committed schema', () => {
    expect(EXAMPLES.map((e) => e.title)).toEqual(['List people', 'Filter', 'Deals', 'Create', 'Update (user errors)']);
    for (const example of EXAMPLES)
      expect({ title: example.title, errors: validate(committed, parse(example.query)).map((e) => e.message) }).toEqual({ title: example.title, errors: [] });
  });

  describe('served', () => {
    let server: TestServer;
    let dataDir: string;
    let key: string;
    const html = (path: string) => fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'crm-explorer-'));
      server = await startTestServer({ DATA_DIR: dataDir });
      key = (await server.createAccount()).admin.apiKey;
    }, 60_000);
    afterAll(async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('/explorer and /graphql (in a browser, in development) serve GraphiQL from this service only', async () => {
      for (const path of ['/explorer', '/graphql']) {
        const res = await html(path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
        const page = await res.text();
        expect(page).toContain('/explorer/assets/graphiql.js');
        // Nothing is loaded from elsewhere: no absolute URL in the page.
        expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
        expect(page).toContain('ListPeople');
      }
      // A GraphQL GET request still reaches the API.
      const api = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
        headers: { 'apollo-require-preflight': 'true', authorization: `Bearer ${key}` },
      });
      expect(await api.json()).toEqual(expect.objectContaining({ data: { __typename: 'Query' } }));
    });

    it('serves the bundles it names, and nothing else', async () => {
      for (const name of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css', 'init.js']) {
        const res = await fetch(`${server.url}/explorer/assets/${name}`);
        expect({ name, status: res.status }).toEqual({ name, status: 200 });
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
      expect((await fetch(`${server.url}/explorer/assets/..%2fpackage.json`)).status).toBe(404);
      expect((await fetch(`${server.url}/explorer/assets/secret.js`)).status).toBe(404);
    });

    it('fills in the demo key only while it works, from a file readable by the service alone', async () => {
      expect(await (await html('/explorer')).text()).not.toContain('Bearer');
      saveDemoKey({ dataDir }, key);
      expect(statSync(join(dataDir, 'demo-api-key')).mode & 0o777).toBe(0o600);
      expect(readDemoKey({ dataDir })).toBe(key);
      const page = await (await html('/explorer')).text();
      expect(page).toContain(`"Authorization":"Bearer ${key}"`);
      expect((await html('/explorer')).headers.get('cache-control')).toBe('no-store');
      // A key that no longer authenticates is not offered.
      saveDemoKey({ dataDir }, 'x'.repeat(43));
      expect(await (await html('/explorer')).text()).not.toContain('Bearer');
    });

    it('Apollo Sandbox is offered too (it loads from its CDN), with telemetry off and no cookies', async () => {
      const page = await (await html('/explorer/sandbox')).text();
      expect(page).toContain('runTelemetry: false');
      expect(page).toContain('includeCookies: false');
      expect(page).toContain('href="/explorer"');
    });
  });

  describe('in production', () => {
    let server: TestServer;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'crm-explorer-prod-'));
      server = await startTestServer({ DATA_DIR: dataDir, NODE_ENV: 'production' });
      saveDemoKey({ dataDir }, (await server.createAccount()).admin.apiKey);
    }, 60_000);
    afterAll(async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('never shows a key, and /graphql is the API only', async () => {
      const page = await (await fetch(`${server.url}/explorer`, { headers: { accept: 'text/html' } })).text();
      expect(page).toContain('/explorer/assets/graphiql.js');
      expect(page).not.toContain('Bearer');
      const graphql = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await graphql.text()).not.toContain('graphiql');
    });
  });
});
