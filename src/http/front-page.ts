import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Request, type Router } from 'express';
import type { Config } from '../config/config';
import { SPEC_PATH } from './docs-page';
import { escapeHtml, NO_FAVICON } from './html';

/**
 * `/`: what this service is and where to go. A browser (a request preferring `text/html`) gets a
 * small page; anything else — `Accept: application/json`, `*` / `*`, no Accept at all (curl) —
 * gets the same as JSON, so scripts and API clients never have to parse HTML.
 */

const DESCRIPTION =
  'A sales CRM (deals, people and leads, companies, activities, calendar, documents): a GraphQL API, and a v3 REST API that reproduces the legacy JSON API.';

/** Where a client may go from here, by name: the JSON's `links`; the pages are links on the HTML page, the API endpoints are named there. */
const LINKS = [
  { name: 'docs', path: '/docs', page: true, title: 'API docs', about: 'the v3 REST API, rendered from its OpenAPI document' },
  { name: 'openapi', path: SPEC_PATH, page: true, title: 'OpenAPI document', about: 'the v3 REST API as OpenAPI 3.1 (JSON)' },
  { name: 'explorer', path: '/explorer', page: true, title: 'GraphQL explorer', about: 'GraphiQL in the browser, with example operations' },
  { name: 'health', path: '/healthz', page: true, title: 'Health', about: '200 once the database is reachable and start-up is done' },
  { name: 'graphql', path: '/graphql', page: false, title: 'GraphQL API', about: 'POST a query here' },
  { name: 'v3', path: '/api/v3', page: false, title: 'v3 REST API', about: 'e.g. GET /api/v3/deals.json' },
] as const;

export interface ServiceInfo {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  /** The git commit of the checkout the service runs from, when it runs from one. */
  readonly commit: string | null;
}

/**
 * The commit checked out at `root`, read from `.git` once at start-up (no `git` process): HEAD, a
 * branch's ref file or `packed-refs`; worktrees (`.git` as a file) too. Null when there is none.
 */
export function gitCommit(root: string): string | null {
  const commitId = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
  try {
    let gitDir = join(root, '.git');
    if (statSync(gitDir).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, 'utf8'));
      if (!pointer) return null;
      gitDir = resolve(root, pointer[1].trim());
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (commitId.test(head)) return head;
    const ref = /^ref:\s*(refs\/\S+)$/.exec(head)?.[1];
    if (!ref || ref.split('/').includes('..')) return null;
    const commonFile = join(gitDir, 'commondir');
    const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
    for (const dir of new Set([gitDir, common])) {
      const loose = join(dir, ref);
      if (existsSync(loose)) {
        const id = readFileSync(loose, 'utf8').trim();
        return commitId.test(id) ? id : null;
      }
    }
    const packed = join(common, 'packed-refs');
    if (!existsSync(packed)) return null;
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const [id, name] = line.trim().split(' ');
      if (name === ref && commitId.test(id)) return id;
    }
    return null;
  } catch {
    return null;
  }
}

/** Name, description and version from package.json, and the commit: read once, when the app is made. */
export function serviceInfo(config: Pick<Config, 'projectRoot'>): ServiceInfo {
  const pkg = JSON.parse(readFileSync(join(config.projectRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, description: DESCRIPTION, version: pkg.version, commit: gitCommit(config.projectRoot) };
}

function frontPage(info: ServiceInfo): string {
  const version = `version ${info.version}${info.commit ? ` (commit ${info.commit.slice(0, 12)})` : ''}`;
  const pages = LINKS.filter((link) => link.page)
    .map((link) => `<li><a href="${escapeHtml(link.path)}" data-link="${link.name}">${escapeHtml(link.title)}</a>: ${escapeHtml(link.about)}</li>`)
    .join('\n');
  const endpoints = LINKS.filter((link) => !link.page)
    .map((link) => `<li>${escapeHtml(link.title)} <code>${escapeHtml(link.path)}</code>: ${escapeHtml(link.about)}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CRM service</title>
${NO_FAVICON}
<style>
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; background: #f3f3f3; padding: 1px 4px; }
li { margin: 0.4em 0; }
footer { margin-top: 2em; color: #666; font-size: 0.9em; }
</style>
</head>
<body>
<h1>CRM service</h1>
<p>${escapeHtml(info.description)}</p>
<ul>
${pages}
</ul>
<h2>The APIs</h2>
<ul>
${endpoints}
</ul>
<p>Each API request carries an API key: <code>?api_key=KEY</code>, <code>Authorization: Bearer KEY</code> or <code>X-Api-Key: KEY</code>.
Scripts get this page as JSON: any request that does not prefer HTML (<code>curl</code>, <code>Accept: application/json</code>).</p>
<footer id="version">${escapeHtml(info.name)} ${escapeHtml(version)}</footer>
</body>
</html>
`;
}

/** The page's CSP: its inline style and nothing else (no script, no asset). */
const FRONT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export interface FrontPageDeps {
  readonly config: Pick<Config, 'projectRoot'>;
  /** The origin clients reach this service at (PUBLIC_URL, else the request's), for the JSON's absolute links. */
  readonly origin: (req: Request) => string;
}

export function frontPageRouter(deps: FrontPageDeps): Router {
  const router = express.Router();
  const info = serviceInfo(deps.config);
  const html = Buffer.from(frontPage(info));

  // GET and HEAD (Express answers HEAD with GET's headers).
  router.get('/', (req, res) => {
    res.vary('Accept');
    res.setHeader('Cache-Control', 'no-cache');
    if (req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Content-Security-Policy', FRONT_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.send(html);
      return;
    }
    const origin = deps.origin(req);
    const links = Object.fromEntries(LINKS.map((link) => [link.name, `${origin}${link.path}`]));
    res.json({ ...info, links });
  });
  return router;
}
