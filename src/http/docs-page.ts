import { readFileSync } from 'node:fs';
import express, { type Request, type Router } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config';
import { localDemoKey } from './explorer/explorer';
import { escapeHtml, NO_FAVICON, scriptJson } from './html';

/**
 * `/docs`: the v3 REST API, rendered in the browser by Redoc's standalone bundle from the OpenAPI
 * document the service serves (`/api/v3/openapi.json`). The bundle comes from the `redoc` package
 * and is served from here, so the page works with no internet; its Content-Security-Policy lets it
 * reach this service only. On the developer's own machine (development, a loopback request) it
 * shows the demo account's key in an example request, while that key still authenticates, like the
 * explorer (explorer.ts).
 */

export const SPEC_PATH = '/api/v3/openapi.json';

/**
 * Redoc renders in the page (styled-components: inline `<style>`), indexes the spec for its search in
 * a worker made from a `blob:` URL, and fetches the spec from here. Nothing else is allowed: an
 * asset of another host would be refused by the browser before it is asked for.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** System fonts: Redoc's defaults (Roboto, Montserrat) are not loaded by the bundle, and no font is fetched. */
const SANS = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

/**
 * Redoc's options (https://redocly.com/docs/redoc/config): the page's JSON config carries them.
 * Its defaults otherwise: expanding responses or samples makes a long document (every v3 route)
 * markedly slower to render.
 */
const REDOC_OPTIONS = {
  theme: { typography: { fontFamily: SANS, headings: { fontFamily: SANS }, code: { fontFamily: MONO } } },
};

/** Starts Redoc from the page's JSON config; the copy button of the example request. */
const INIT_SCRIPT = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('docs-config').textContent);
  var target = document.getElementById('redoc');
  Redoc.init(config.specUrl, config.options, target, function (error) {
    if (error) {
      var message = document.createElement('p');
      message.className = 'docs-error';
      message.textContent = 'The API description could not be loaded from ' + config.specUrl + ': ' + (error.message || error);
      target.prepend(message);
    }
  });
  var button = document.getElementById('copy-example');
  if (button) {
    button.addEventListener('click', function () {
      var text = document.getElementById('example').textContent;
      navigator.clipboard.writeText(text).then(
        function () { button.textContent = 'Copied'; },
        function () { button.textContent = 'Select the line to copy it'; }
      );
    });
  }
})();
`;

/**
 * Redoc's sidebar shows Redocly's logo from its CDN: the one request the bundle would make to
 * another host (the CSP would refuse it). Its address is emptied, so the image is never asked for
 * and Redoc drops it; the "API docs by Redocly" link stays. The source map is not served.
 */
export function offlineRedocBundle(source: string): string {
  return source.replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', '').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

function tryItBanner(origin: string, key: string): string {
  const example = `curl '${origin}/api/v3/deals.json?api_key=${key}'`;
  return `<section class="try-it" aria-label="Try it">
<p><strong>Try it</strong> with the demo account's key, <code id="demo-key">api_key=${escapeHtml(key)}</code>
(or the header <code>Authorization: Bearer</code> and the key). It is offered to this machine only, in development.</p>
<p><code id="example">${escapeHtml(example)}</code> <button type="button" id="copy-example">Copy</button></p>
</section>
`;
}

function docsPage(banner: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CRM v3 REST API</title>
${NO_FAVICON}
<style>
body { margin: 0; }
.docs-bar, .try-it { font: 14px/1.5 ${SANS}; padding: 8px 16px; border-bottom: 1px solid #ddd; }
.docs-bar a { margin-right: 1em; }
.try-it { background: #fff8e1; }
.try-it p { margin: 4px 0; }
.try-it code { font-family: ${MONO}; background: #fff; padding: 1px 4px; }
#demo-key, #example { word-break: break-all; }
.docs-error { font: 14px ${SANS}; color: #b00020; padding: 16px; }
</style>
</head>
<body>
<nav class="docs-bar"><a href="/">CRM service</a><a href="${SPEC_PATH}">OpenAPI document</a><a href="/explorer">GraphQL explorer</a></nav>
${banner}<div id="redoc"></div>
<noscript><p>This page needs JavaScript. The API description is at <a href="${SPEC_PATH}">${SPEC_PATH}</a>.</p></noscript>
<script id="docs-config" type="application/json">${scriptJson({ specUrl: SPEC_PATH, options: REDOC_OPTIONS })}</script>
<script src="/docs/assets/redoc.standalone.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

export interface DocsDeps {
  readonly config: Config;
  readonly orm: MikroORM;
  /** The origin clients reach this service at (PUBLIC_URL, else the request's), for the example request. */
  readonly origin: (req: Request) => string;
}

export function docsRouter(deps: DocsDeps): Router {
  const router = express.Router();
  // Resolved as a package path so it is found from src/ (tests) and dist/ (npm start) alike.
  const bundle = offlineRedocBundle(readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8'));
  const assets = new Map<string, Buffer>([
    ['redoc.standalone.js', Buffer.from(bundle)],
    ['init.js', Buffer.from(INIT_SCRIPT)],
  ]);

  router.get('/docs/assets/:name', (req, res) => {
    const body = assets.get(req.params.name);
    if (!body) {
      res.status(404).json({ error: `No docs asset ${req.params.name.slice(0, 100)}` });
      return;
    }
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(body);
  });

  router.get('/docs', async (req, res, next) => {
    try {
      const key = await localDemoKey(deps, req);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // The page may carry the demo key: never cached or shared.
      res.setHeader('Cache-Control', 'no-store');
      res.send(docsPage(key ? tryItBanner(deps.origin(req), key) : ''));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
