import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/**
 * A real browser for the pages' tests: Debian's chromium, headless, driven by puppeteer-core, with a
 * fresh profile and Chrome's own traffic (updates, sync, QUIC probes) turned off, so what a page
 * asks for is all that goes out. CI sets REQUIRE_BROWSER=1 (.ci/run installs chromium); elsewhere
 * the tests are skipped with a notice when no chromium is installed.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but no browser at ${CHROMIUM} (apt-get install chromium)`);

/** `describe` when chromium is installed, else `describe.skip` with a notice saying why. */
export function describeWithBrowser(name: string, body: () => void): void {
  if (available) {
    describe(name, body);
    return;
  }
  process.stderr.write(`browser tests skipped ("${name}"): no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
  describe.skip(`${name} (skipped: no chromium at ${CHROMIUM})`, body);
}

export interface HeadlessBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<HeadlessBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'crm-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--disable-extensions',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface RecordedPage {
  readonly page: Page;
  /** Every request the page made (documents, scripts, fetches, images…), in order. */
  readonly requests: string[];
  /** Requests to anything but `origin` (and data:/blob: URLs): refused, listed here. */
  readonly outside: string[];
  /** Same-origin answers of 400 and more, as `STATUS URL`. */
  readonly failed: string[];
  /** Uncaught exceptions and console errors of the page. */
  readonly errors: string[];
  /** Content-Security-Policy violations the page reported (`directive blocked-uri`). */
  cspViolations(): Promise<string[]>;
}

/**
 * A new page that may reach `origin` only: every request is recorded, one to another host is
 * aborted before it leaves (and listed in `outside`), so a failing test sends nothing out either.
 */
export async function recordedPage(browser: Browser, origin: string): Promise<RecordedPage> {
  const page = await browser.newPage();
  // A desktop window: narrower, Redoc folds its sidebar (the menu and search) away.
  await page.setViewport({ width: 1280, height: 900 });
  const requests: string[] = [];
  const outside: string[] = [];
  const failed: string[] = [];
  const errors: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = request.url();
    requests.push(url);
    const { protocol } = new URL(url);
    if (protocol === 'data:' || protocol === 'blob:' || new URL(url).origin === origin) void request.continue();
    else {
      outside.push(url);
      void request.abort('blockedbyclient');
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  // The page's own record of what its CSP refused (the tsconfig has no DOM types: code as text).
  await page.evaluateOnNewDocument(`
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => window.__cspViolations.push(event.effectiveDirective + ' ' + event.blockedURI));
  `);
  const cspViolations = () => page.evaluate('window.__cspViolations || []') as Promise<string[]>;
  return { page, requests, outside, failed, errors, cspViolations };
}
