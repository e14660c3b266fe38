import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type Request, type Router } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { hashKey } from '../../common/keys';
import type { Config } from '../../config/config';
import { readDemoKey } from '../../db/demo-key';
import { EXAMPLES } from './examples';

/**
 * The explorers for front-end developers:
 * - `/explorer` (and `/graphql` opened in a browser, in development): GraphiQL, shipped by its npm
 *   package and served from here with React, so it works with no internet and sends no telemetry
 *   (the page's Content-Security-Policy lets it reach this service only);
 * - `/explorer/sandbox`: Apollo Sandbox, which loads from Apollo's CDN (telemetry off).
 * Both open with example operations; on the developer's own machine (development, a loopback
 * request) with the demo account's key in the headers, while that key still works.
 */

/** The browser bundles, by the name they are served under, from their packages. */
const ASSETS: Readonly<Record<string, { readonly pkg: string; readonly file: string; readonly type: string }>> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
};

/** Renders GraphiQL from the page's JSON config (endpoint, example tabs, headers). */
const INIT_SCRIPT = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('explorer-config').textContent);
  var fetcher = GraphiQL.createFetcher({ url: config.endpoint });
  var headers = config.headers ? JSON.stringify(config.headers, null, 2) : undefined;
  var tabs = config.examples.map(function (example) {
    return { query: example.query, variables: example.variables ? JSON.stringify(example.variables, null, 2) : undefined, headers: headers };
  });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultTabs: tabs,
      defaultHeaders: headers,
      defaultEditorToolsVisibility: headers ? 'headers' : true,
      shouldPersistHeaders: false,
    }),
  );
})();
`;

/** JSON inside a <script> element: `<` escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const GRAPHIQL_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function graphiqlPage(config: object): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CRM GraphQL explorer</title>
<link rel="stylesheet" href="/explorer/assets/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading the explorer…</div>
<script id="explorer-config" type="application/json">${scriptJson(config)}</script>
<script src="/explorer/assets/react.js"></script>
<script src="/explorer/assets/react-dom.js"></script>
<script src="/explorer/assets/graphiql.js"></script>
<script src="/explorer/assets/init.js"></script>
</body>
</html>
`;
}

function sandboxPage(config: { endpoint: string; headers: Record<string, string> | null; document: string }): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>CRM GraphQL: Apollo Sandbox</title>
<style>html, body, #sandbox { height: 100%; margin: 0; }</style></head>
<body>
<div id="sandbox"><p>Apollo Sandbox loads from Apollo's CDN. Offline? Use the <a href="/explorer">self-hosted explorer</a>.</p></div>
<script id="explorer-config" type="application/json">${scriptJson(config)}</script>
<script src="https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js"></script>
<script>
  var config = JSON.parse(document.getElementById('explorer-config').textContent);
  new window.EmbeddedSandbox({
    target: '#sandbox',
    initialEndpoint: new URL(config.endpoint, location.href).href,
    initialState: { document: config.document, headers: config.headers || {} },
    includeCookies: false,
    runTelemetry: false,
  });
</script>
</body>
</html>
`;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** Whether the request comes from this machine itself (the socket's address: proxies are not trusted). */
export function fromLoopback(req: Request): boolean {
  return LOOPBACK.test(req.socket.remoteAddress ?? '');
}

export interface ExplorerDeps {
  readonly config: Config;
  readonly orm: MikroORM;
}

/**
 * The demo account's key, for a developer on this machine (development, a loopback request), while
 * the key still authenticates; else null. A page that shows it must be sent with `no-store`.
 * The explorers put it in their headers, the docs page (http/docs) in its example request.
 */
export async function localDemoKey(deps: ExplorerDeps, req: Request): Promise<string | null> {
  if (!deps.config.development || !fromLoopback(req)) return null;
  const key = readDemoKey(deps.config);
  if (!key) return null;
  const rows = await deps.orm.em
    .fork()
    .getConnection()
    .execute<Array<{ id: number }>>('select id from "users" where api_key_hash = ? limit 1', [hashKey(key)], 'all');
  return rows.length > 0 ? key : null;
}

/** The demo key's header, for a developer on this machine, while the key still authenticates. */
async function demoHeaders(deps: ExplorerDeps, req: Request): Promise<Record<string, string> | null> {
  const key = await localDemoKey(deps, req);
  return key ? { Authorization: `Bearer ${key}` } : null;
}

/** Whether a GET of /graphql is a person opening it in a browser (not a GraphQL GET request). */
export function wantsExplorer(req: Request): boolean {
  return req.method === 'GET' && req.query.query === undefined && (req.headers.accept ?? '').includes('text/html');
}

export function explorerRouter(deps: ExplorerDeps): Router {
  const router = express.Router();
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const [name, asset] of Object.entries(ASSETS)) {
    const root = dirname(require.resolve(`${asset.pkg}/package.json`));
    assets.set(name, { body: readFileSync(join(root, asset.file)), type: asset.type });
  }
  assets.set('init.js', { body: Buffer.from(INIT_SCRIPT), type: 'text/javascript' });

  router.get('/explorer/assets/:name', (req, res) => {
    const asset = assets.get(req.params.name);
    if (!asset) {
      res.status(404).json({ error: `No explorer asset ${req.params.name.slice(0, 100)}` });
      return;
    }
    res.setHeader('Content-Type', `${asset.type}; charset=utf-8`);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(asset.body);
  });

  const graphiql: express.RequestHandler = async (req, res, next) => {
    try {
      const headers = await demoHeaders(deps, req);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Content-Security-Policy', GRAPHIQL_CSP);
      // The page may carry the demo key: never cached or shared.
      res.setHeader('Cache-Control', 'no-store');
      res.end(graphiqlPage({ endpoint: '/graphql', headers, examples: EXAMPLES }));
    } catch (error) {
      next(error);
    }
  };
  router.get('/explorer', graphiql);
  if (deps.config.development) {
    router.get('/graphql', (req, res, next) => (wantsExplorer(req) ? graphiql(req, res, next) : next()));
  }
  router.get('/explorer/sandbox', async (req, res, next) => {
    try {
      const headers = await demoHeaders(deps, req);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.end(sandboxPage({ endpoint: '/graphql', headers, document: EXAMPLES.map((e) => e.query).join('\n') }));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
