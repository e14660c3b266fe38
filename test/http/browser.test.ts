import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { saveDemoKey } from '../../src/db/demo-key';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A real browser (Debian's chromium, headless, driven by puppeteer-core) opens the self-hosted
 * explorer with no internet: every request leaving this machine is refused and recorded. CI sets
 * REQUIRE_BROWSER=1 (.ci/run installs chromium); elsewhere the test is skipped with a notice when
 * no chromium is installed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but no browser at ${CHROMIUM} (apt-get install chromium)`);
if (!available) process.stderr.write(`browser test skipped: no chromium at ${CHROMIUM}\n`);
const describeWithBrowser = available ? describe : describe.skip;

describeWithBrowser('the explorer in a headless browser', () => {
  let server: TestServer;
  let browser: Browser;
  let dataDir: string;
  let key: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crm-browser-'));
    server = await startTestServer({ DATA_DIR: dataDir });
    key = (await server.createAccount()).admin.apiKey;
    await server.v3(key).post('/people.json', { person: { first_name: 'Grace', last_name: 'Hopper', company_name: 'Navy' } });
    saveDemoKey({ dataDir }, key);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run', '--disable-extensions'],
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads GraphiQL from this service only, with the demo key, and runs a query against the database', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:') void request.continue();
      else {
        outside.push(request.url());
        void request.abort();
      }
    });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));

    await page.goto(`${server.url}/explorer`, { waitUntil: 'networkidle0', timeout: 60_000 });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    // The first tab is the people list, with the demo key in its headers: run it.
    await page.click('.graphiql-execute-button');
    await page.waitForFunction("(document.querySelector('.graphiql-response')?.textContent ?? '').includes('Hopper')", { timeout: 30_000 });
    const response = await page.$eval('.graphiql-response', (el) => el.textContent ?? '');
    expect(response).toContain('"fullName": "Grace Hopper"');
    expect(response).toContain('"totalCount": 1');
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
