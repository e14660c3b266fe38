import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCommit } from '../../src/http/front-page';
import { startTestServer, type TestServer } from '../support/test-server';

/** `/`: a page for browsers, the same as JSON for everything else (curl, scripts, API clients). */
describe('the front page', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { name: string; version: string };
  let server: TestServer;
  let head: string | null;
  beforeAll(async () => {
    // The commit the checkout is at (none when it is not a git checkout).
    try {
      head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }).trim();
    } catch {
      head = null;
    }
    server = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });
  const get = (accept?: string, method = 'GET') => fetch(`${server.url}/`, { method, headers: accept === undefined ? {} : { accept } });

  it('answers JSON with what the service is, its version and absolute links', async () => {
    const res = await get('application/json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('vary')).toContain('Accept');
    const body = (await res.json()) as { description: string };
    expect(body).toEqual({
      name: pkg.name,
      description: expect.stringContaining('sales CRM'),
      version: pkg.version,
      commit: head,
      links: {
        docs: `${server.url}/docs`,
        openapi: `${server.url}/api/v3/openapi.json`,
        explorer: `${server.url}/explorer`,
        health: `${server.url}/healthz`,
        graphql: `${server.url}/graphql`,
        v3: `${server.url}/api/v3`,
      },
    });
    expect(body.description).toMatch(/GraphQL/);
    expect(body.description).toMatch(/v3 REST/);
  });

  it('gives JSON to anything that does not prefer HTML: curl (*/*), no Accept, an unknown type', async () => {
    for (const accept of ['*/*', undefined, 'text/plain', 'application/json, text/html;q=0.5']) {
      const res = await get(accept);
      expect({ accept, status: res.status, type: res.headers.get('content-type') }).toEqual({ accept, status: 200, type: 'application/json; charset=utf-8' });
      expect(((await res.json()) as { version: string }).version).toBe(pkg.version);
    }
  });

  it('gives a browser a small page with no script or asset from anywhere, escaped', async () => {
    for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html']) {
      const res = await get(accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      const page = await res.text();
      expect(page).toContain('<title>CRM service</title>');
      expect(page).toContain(`version ${pkg.version}`);
      for (const path of ['/docs', '/api/v3/openapi.json', '/explorer', '/healthz']) expect(page).toContain(`href="${path}"`);
      expect(page).not.toMatch(/<script|(src|href)="(https?:)?\/\//);
      expect(page.length).toBeLessThan(4000);
    }
  });

  it('answers HEAD with the headers alone', async () => {
    const json = await get('application/json', 'HEAD');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await json.text()).toBe('');
    const html = await get('text/html', 'HEAD');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(html.headers.get('content-length'))).toBeGreaterThan(500);
    expect(await html.text()).toBe('');
  });

  it('only GET and HEAD: other methods are a JSON 404 as before', async () => {
    const res = await fetch(`${server.url}/`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No route matches POST /' });
  });
});

describe('gitCommit', () => {
  const id = 'a'.repeat(40);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'crm-git-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it('reads a branch ref, a packed ref, a detached HEAD and a worktree; null without a repository', () => {
    expect(gitCommit(root)).toBeNull();
    write('.git/HEAD', 'ref: refs/heads/main\n');
    expect(gitCommit(root)).toBeNull();
    write('.git/packed-refs', `# pack-refs with: peeled fully-peeled sorted\n${'b'.repeat(40)} refs/heads/other\n${id} refs/heads/main\n`);
    expect(gitCommit(root)).toBe(id);
    write('.git/refs/heads/main', `${'c'.repeat(40)}\n`);
    expect(gitCommit(root)).toBe('c'.repeat(40));
    write('.git/HEAD', `${'d'.repeat(40)}\n`);
    expect(gitCommit(root)).toBe('d'.repeat(40));

    // A worktree: .git is a file naming its git dir, whose commondir holds the refs.
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeFileSync(join(tree, '.git'), `gitdir: ${join(root, '.git', 'worktrees', 'tree')}\n`);
    write('.git/worktrees/tree/HEAD', 'ref: refs/heads/main\n');
    write('.git/worktrees/tree/commondir', '../..\n');
    expect(gitCommit(tree)).toBe('c'.repeat(40));
  });

  it('refuses what is not a commit id or a ref path', () => {
    write('.git/HEAD', 'ref: refs/heads/../../../etc/passwd\n');
    expect(gitCommit(root)).toBeNull();
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('.git/refs/heads/main', 'not a commit\n');
    expect(gitCommit(root)).toBeNull();
  });
});
