import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveDemoKey } from '../../src/db/demo-key';
import { describeWithBrowser, launchBrowser, recordedPage, type HeadlessBrowser } from '../support/browser';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The front page and the docs page as a person meets them, in a real browser (Debian's chromium,
 * headless) with no internet: every request is recorded and one to another host is refused, and
 * both pages must work from this service alone. The docs page renders the deals operations from
 * the service's own OpenAPI document and offers the demo key to the developer on this machine.
 */
describeWithBrowser('the front page and the docs page in a headless browser', () => {
  let server: TestServer;
  let chromium: HeadlessBrowser;
  let dataDir: string;
  let key: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crm-pages-'));
    server = await startTestServer({ DATA_DIR: dataDir });
    key = (await server.createAccount()).admin.apiKey;
    saveDemoKey({ dataDir }, key);
    chromium = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** What Redoc shows once the spec is loaded: the sidebar's menu and the operations. */
  const waitForRedoc = `document.querySelector('#redoc [role="menu"]') !== null && document.getElementById('redoc').innerText.includes('/deals.json')`;

  it('/ names the service, its version, and links to pages that work; the docs link opens the docs', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    const recorded = await recordedPage(chromium.browser, server.url);
    const { page } = recorded;
    const response = await page.goto(`${server.url}/`, { waitUntil: 'networkidle0' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.title()).toBe('CRM service');
    const text = await page.$eval('body', (el) => (el as unknown as { innerText: string }).innerText);
    expect(text).toContain('sales CRM');
    expect(text).toContain('GraphQL');
    expect(text).toContain(`version ${version}`);

    const links = await page.$$eval('a[data-link]', (els) =>
      els.map((el) => ({ name: el.getAttribute('data-link'), href: (el as unknown as { href: string }).href })),
    );
    expect(links.map((l) => l.name)).toEqual(['docs', 'openapi', 'explorer', 'health']);
    expect(links.map((l) => new URL(l.href).pathname)).toEqual(['/docs', '/api/v3/openapi.json', '/explorer', '/healthz']);
    // Each link opens (as a browser asks for it).
    for (const link of links) {
      const target = await fetch(link.href, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect({ link: link.name, status: target.status }).toEqual({ link: link.name, status: 200 });
    }

    // The docs link opens the docs page (its rendering is the next test's: a long document takes a while).
    const [docs] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('a[data-link="docs"]')]);
    expect(docs?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/docs');
    expect(await page.title()).toBe('CRM v3 REST API');
    expect(await page.evaluate('typeof Redoc.init')).toBe('function');

    expect(recorded.outside).toEqual([]);
    expect(recorded.failed).toEqual([]);
    expect(recorded.errors).toEqual([]);
    expect(await recorded.cspViolations()).toEqual([]);
    expect(recorded.requests.every((url) => new URL(url).origin === server.url || url.startsWith('data:') || url.startsWith('blob:'))).toBe(true);
    await page.close();
  }, 90_000);

  it('/docs renders the deals operations from /api/v3/openapi.json, from this service only, with the demo key', async () => {
    const recorded = await recordedPage(chromium.browser, server.url);
    const { page } = recorded;
    const response = await page.goto(`${server.url}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // Redoc renders every v3 route: seconds on a laptop, more on a busy CI machine.
    await page.waitForFunction(waitForRedoc, { timeout: 150_000, polling: 250 });

    // The deals tag in the sidebar, and a deals route with its operations in the page.
    const menu = await page.$eval('#redoc [role="menu"]', (el) => (el as unknown as { innerText: string }).innerText);
    expect(menu).toMatch(/^deals$/im);
    const text = await page.$eval('#redoc', (el) => (el as unknown as { innerText: string }).innerText);
    expect(text).toContain('/deals.json');
    expect(text).toMatch(/\/deals\/\{\w+\}\.json/);

    // The example request with the demo key, and its copy button.
    const example = await page.$eval('#example', (el) => el.textContent ?? '');
    expect(example).toBe(`curl '${server.url}/api/v3/deals.json?api_key=${key}'`);
    await chromium.browser.defaultBrowserContext().overridePermissions(server.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.click('#copy-example');
    await page.waitForFunction(`document.getElementById('copy-example').textContent === 'Copied'`, { timeout: 5_000 });
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(example);
    // What it shows works: the key lists the deals.
    expect((await fetch(`${server.url}/api/v3/deals.json?api_key=${key}`)).status).toBe(200);

    // Redoc's search runs in its blob: worker, allowed by the page's CSP.
    await page.type('#redoc input[role="search"], #redoc input[placeholder="Search..."]', 'deals');
    await page.waitForFunction(`document.querySelector('[data-role="search:results"]') !== null`, { timeout: 60_000 });

    // Everything came from the service itself; nothing was refused by the CSP or failed.
    expect(recorded.outside).toEqual([]);
    expect(recorded.failed).toEqual([]);
    expect(recorded.errors).toEqual([]);
    expect(await recorded.cspViolations()).toEqual([]);
    const paths = recorded.requests.map((url) => (url.startsWith('data:') || url.startsWith('blob:') ? url.slice(0, 5) : new URL(url).pathname));
    expect(paths).toEqual(expect.arrayContaining(['/docs', '/docs/assets/redoc.standalone.js', '/docs/assets/init.js', '/api/v3/openapi.json']));
    expect(recorded.requests.every((url) => new URL(url).origin === server.url || url.startsWith('data:') || url.startsWith('blob:'))).toBe(true);
    await page.close();
  }, 240_000);
});
