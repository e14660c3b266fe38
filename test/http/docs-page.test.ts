import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveDemoKey } from '../../src/db/demo-key';
import { offlineRedocBundle } from '../../src/http/docs-page';
import { startTestServer, type TestServer } from '../support/test-server';

/** `/docs`: Redoc from node_modules, nothing from elsewhere, the demo key for local eyes only. */
describe('the docs page', () => {
  it("Redoc's bundle is served without the one address of another host it would load (Redocly's logo)", () => {
    const original = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
    expect(original.includes('https://cdn.redoc.ly/redoc/logo-mini.svg')).toBe(true);
    const served = offlineRedocBundle(original);
    // Booleans, not the text: a failing match would print a megabyte of bundle.
    expect(served.includes('cdn.redoc.ly')).toBe(false);
    expect(/\/\/# sourceMappingURL=\S+\s*$/.test(served)).toBe(false);
    // No web font or stylesheet from a CDN either (Redoc's default fonts are names, never fetched).
    expect(served.match(/fonts\.(googleapis|gstatic)\.com|unpkg\.com|jsdelivr\.net|cdnjs/g)).toBeNull();
    expect(served.length).toBeGreaterThan(original.length - 200);
  });

  describe('served', () => {
    let server: TestServer;
    let dataDir: string;
    let key: string;
    const docs = () => fetch(`${server.url}/docs`, { headers: { accept: 'text/html' } });
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'crm-docs-'));
      server = await startTestServer({ DATA_DIR: dataDir });
      key = (await server.createAccount()).admin.apiKey;
    }, 60_000);
    afterAll(async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('is a page that loads Redoc and the spec from this service only, under a strict CSP', async () => {
      const res = await docs();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "worker-src 'self' blob:",
        "frame-ancestors 'none'",
      ])
        expect(csp).toContain(directive);
      expect(csp).not.toMatch(/https?:|unsafe-eval/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      expect(page).toContain('<script src="/docs/assets/redoc.standalone.js"></script>');
      expect(page).toContain('"specUrl":"/api/v3/openapi.json"');
      expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
      // No inline script: the CSP allows none.
      expect(page.match(/<script(?! src="\/docs\/assets\/)(?! id="docs-config" type="application\/json")/g)).toBeNull();
    });

    it('serves the bundles it names, and nothing else', async () => {
      for (const name of ['redoc.standalone.js', 'init.js']) {
        const res = await fetch(`${server.url}/docs/assets/${name}`);
        expect({ name, status: res.status, type: res.headers.get('content-type') }).toEqual({ name, status: 200, type: 'text/javascript; charset=utf-8' });
        expect((await res.text()).includes('cdn.redoc.ly')).toBe(false);
      }
      expect((await fetch(`${server.url}/docs/assets/..%2fpackage.json`)).status).toBe(404);
      expect((await fetch(`${server.url}/docs/assets/redoc.standalone.js.map`)).status).toBe(404);
    });

    it('offers the demo key in an example request only while it works', async () => {
      expect(await (await docs()).text()).not.toContain('api_key=');
      saveDemoKey({ dataDir }, key);
      const page = await (await docs()).text();
      expect(page).toContain(`<code id="demo-key">api_key=${key}</code>`);
      expect(page).toContain(`curl &#39;${server.url}/api/v3/deals.json?api_key=${key}&#39;`);
      // A key that no longer authenticates is not offered.
      saveDemoKey({ dataDir }, 'x'.repeat(43));
      expect(await (await docs()).text()).not.toContain('api_key=');
    });
  });

  describe('in production', () => {
    let server: TestServer;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'crm-docs-prod-'));
      server = await startTestServer({ DATA_DIR: dataDir, NODE_ENV: 'production' });
      saveDemoKey({ dataDir }, (await server.createAccount()).admin.apiKey);
    }, 60_000);
    afterAll(async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('never shows a key', async () => {
      const page = await (await fetch(`${server.url}/docs`)).text();
      expect(page).toContain('/docs/assets/redoc.standalone.js');
      expect(page).not.toContain('api_key=');
      expect(page).not.toContain('try-it"');
    });
  });
});
