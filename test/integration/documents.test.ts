import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../../src/context/context';
import type { JobName, JobPayloads } from '../../src/context/job-names';
import { redact } from '../../src/common/logger';
import { Visibility } from '../../src/modules/users/user.entity';
import { viewerForUser } from '../../src/modules/users/user.viewer';
import { DocumentService } from '../../src/modules/documents/document.service';
import { documentFetchOptions, dueDocumentIds, fetchDocument, type DocumentFetchDeps } from '../../src/modules/documents/document.fetch-job';
import { LocalDiskStorage } from '../../src/modules/documents/storage';
import { fixtures } from '../support/fixtures';
import { formEncode, startTestServer, testConfig, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 13 §3: documents over v3 and GraphQL. The fetch job is run directly (no worker), against an
 * HTTP server this test starts on loopback (allowed for 127.0.0.1 alone), into the folder the
 * server serves public links from and removes deleted documents' bytes from.
 */

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 7)]);
const HTML = Buffer.from('<html><script>alert(document.cookie)</script></html>');
const SHEET = Buffer.from('a,b\n1,2\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The v3 §2.7 keys, in order (company_id beside deal_id; url never shown). */
const KEYS = [
  'id',
  'title',
  'created_at',
  'updated_at',
  'owner_id',
  'person_id',
  'deal_id',
  'company_id',
  'public_link',
  'size_in_k',
  'owner',
  'person',
  'deal',
  'company',
  'etag',
  'upload_status',
  'upload_status_error_message',
  'upload_state',
  'document_tag_ids',
  'document_tags',
];

describe('documents', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let admin: ReturnType<TestServer['v3']>;
  let own: { id: number; apiKey: string };

  let origin: Server;
  let base: string;
  /** Requests the origin server answers later (a fetch caught in flight). */
  const held: Array<() => void> = [];
  let released: Promise<void>;
  let release: () => void = () => undefined;
  let heldReached: Promise<void>;
  let reachHeld: () => void = () => undefined;

  let linkBase: string;
  let storageDir: string;
  let storage: LocalDiskStorage;
  let deps: DocumentFetchDeps;

  const routes: Record<string, (res: ServerResponse) => void> = {
    '/files/report.pdf': (res) => {
      res.writeHead(200, { 'Content-Type': 'application/pdf' });
      res.end(PDF);
    },
    '/files/page.html': (res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(HTML);
    },
    // No useful type: the extension decides.
    '/files/numbers.xlsx': (res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(SHEET);
    },
    '/export': (res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.end(SHEET);
    },
    '/missing.pdf': (res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not here, says 127.0.0.1');
    },
    '/to-private': (res) => {
      res.writeHead(302, { Location: 'http://10.1.2.3/secret.pdf' });
      res.end();
    },
    '/held.pdf': (res) => {
      held.push(() => {
        res.writeHead(200, { 'Content-Type': 'application/pdf' });
        res.end(PDF);
      });
      reachHeld();
    },
  };

  const hold = () => {
    released = new Promise((r) => (release = r));
    heldReached = new Promise((r) => (reachHeld = r));
    void released.then(() => held.splice(0).forEach((answer) => answer()));
  };

  const filesOf = (accountId: number) => {
    const dir = join(storageDir, String(accountId));
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const row = async (id: number) => (await server.sql('select * from documents where id = ?', [id]))[0];
  const linkPath = (publicLink: string) => `${linkBase}${new URL(publicLink).pathname}`;
  const gql = async (apiKey: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(apiKey, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const create = async (attrs: Record<string, unknown>, apiKey = key) => {
    const res = await server.v3(apiKey).post('/documents.json', { document: attrs });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  };
  const ids = (res: { body: { entries: Array<{ id: number }> } }) => res.body.entries.map((e) => e.id);

  beforeAll(async () => {
    origin = createServer((req, res) => {
      const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (route) route(res);
      else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

    storageDir = mkdtempSync(join(tmpdir(), 'crm-documents-test-'));
    storage = new LocalDiskStorage(storageDir);
    // The server stores, serves and removes bytes in the same folder the test's fetches write to.
    server = await startTestServer({ DOCUMENTS_DIR: storageDir });
    account = await server.createAccount();
    key = account.admin.apiKey;
    admin = server.v3(key);
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN, firstName: 'Olga', lastName: 'Own' });
    deps = {
      orm: server.orm,
      storage,
      fetch: { allowAddress: (address) => address === '127.0.0.1', timeoutMs: 5000, idleTimeoutMs: 3000 },
      leaseSeconds: 60,
      maxAttempts: 3,
    };
    linkBase = server.url;
  }, 60_000);

  afterAll(async () => {
    release();
    await server.close();
    await new Promise((r) => origin.close(r));
    rmSync(storageDir, { recursive: true, force: true });
  });

  it('creates a pending document with every v3 field, the url never shown; the fetch completes it', async () => {
    const person = await fixtures.person(server, key, { firstName: 'Ann', lastName: 'Lee' });
    const created = await create({ url: `${base}/files/report.pdf`, person_id: person, updated_at: '2014-05-19 08:54:59 -0400' });
    expect(Object.keys(created)).toEqual(KEYS);
    expect(created).toEqual({
      id: expect.any(Number),
      title: 'report.pdf',
      created_at: expect.stringMatching(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0000$/),
      updated_at: '2014/05/19 12:54:59 +0000',
      owner_id: account.admin.id,
      person_id: person,
      deal_id: null,
      company_id: null,
      public_link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/documents\/public\/[A-Za-z0-9_-]{43}$/),
      size_in_k: null,
      owner: { id: account.admin.id, first_name: 'Ada', last_name: expect.any(String), full_name: expect.stringMatching(/^Ada /) },
      // Issue 22 §3: both name forms (the spec's full_name, the recordings' first/last name).
      person: { id: person, first_name: 'Ann', last_name: 'Lee', full_name: 'Ann Lee' },
      deal: null,
      company: null,
      etag: null,
      upload_status: 1,
      upload_status_error_message: null,
      upload_state: 'pending',
      document_tag_ids: [],
      document_tags: [],
    });
    expect(created.public_link.startsWith(server.url)).toBe(true);
    // Not fetched yet: the link answers 404.
    expect((await fetch(linkPath(created.public_link))).status).toBe(404);
    expect(await dueDocumentIds(server.orm.em.fork(), 10_000)).toContain(created.id);

    const outcome = await fetchDocument(deps, created.id);
    expect(outcome).toEqual({
      status: 'complete',
      sizeBytes: PDF.length,
      sizeInK: Math.ceil(PDF.length / 1024),
      etag: sha256(PDF),
      contentType: 'application/pdf',
      attempts: 1,
    });
    // Idempotent: a second run finds it complete and does nothing.
    expect(await fetchDocument(deps, created.id)).toEqual({ status: 'skipped' });
    // The fetch's move to complete is a change of the document, made by the job (issue 24 §1); the claim is none.
    const changes = await server.sql(`select action, origin, actor_kind, changes from record_changes where model = 'document' and record_id = ? order by id`, [
      created.id,
    ]);
    expect(changes.map((c) => [c.action, c.origin, c.actor_kind])).toEqual([
      ['create', 'v3', 'user'],
      ['update', 'job', 'job'],
    ]);
    expect(changes[1].changes).toMatchObject({ upload_status: [1, 2], size_bytes: [null, PDF.length] });
    expect(Object.keys(changes[1].changes)).not.toContain('storage_key');
    expect(await dueDocumentIds(server.orm.em.fork(), 10_000)).not.toContain(created.id);

    const shown = await admin.get(`/documents/${created.id}.json`);
    expect(shown.body).toMatchObject({
      title: 'report.pdf',
      size_in_k: 3,
      etag: sha256(PDF),
      upload_status: 2,
      upload_state: 'complete',
      upload_status_error_message: null,
      updated_at: '2014/05/19 12:54:59 +0000',
    });
    expect(shown.body).not.toHaveProperty('url');
    expect(shown.text).not.toContain('/files/report.pdf');
    const stored = await row(created.id);
    expect(stored).toMatchObject({
      upload_status: 2,
      size_bytes: PDF.length,
      content_type: 'application/pdf',
      kind: 'pdf',
      fetch_lease_until: null,
      fetch_attempts: 1,
    });
    expect(stored.uploaded_at).not.toBeNull();
    expect(stored.public_token_digest).toBe(sha256(Buffer.from(new URL(created.public_link).pathname.split('/').pop()!)));
    expect(filesOf(account.accountId)).toEqual([expect.stringMatching(new RegExp(`^${created.id}-[0-9a-f]{24}$`))]);

    const gq = await gql(key, 'query($id: Int!) { document(id: $id) { title kind contentType sizeBytes uploadedAt uploadState publicLink } }', {
      id: created.id,
    });
    expect(gq.document).toMatchObject({
      title: 'report.pdf',
      kind: 'PDF',
      contentType: 'application/pdf',
      sizeBytes: PDF.length,
      uploadState: 'COMPLETE',
      publicLink: created.public_link,
    });
  });

  it('serves the bytes at the public link without a key, with safe headers; 304 on If-None-Match', async () => {
    const pdf = await create({ url: `${base}/files/report.pdf`, title: 'Q3 report é.pdf' });
    await fetchDocument(deps, pdf.id);
    const res = await fetch(linkPath(pdf.public_link));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PDF);
    expect({
      type: res.headers.get('content-type'),
      etag: res.headers.get('etag'),
      nosniff: res.headers.get('x-content-type-options'),
      disposition: res.headers.get('content-disposition'),
      length: res.headers.get('content-length'),
      cache: res.headers.get('cache-control'),
    }).toEqual({
      type: 'application/pdf',
      etag: `"${sha256(PDF)}"`,
      nosniff: 'nosniff',
      disposition: `inline; filename="Q3 report _.pdf"; filename*=UTF-8''Q3%20report%20%C3%A9.pdf`,
      length: String(PDF.length),
      cache: 'private, no-cache',
    });
    const again = await fetch(linkPath(pdf.public_link), { headers: { 'If-None-Match': `"${sha256(PDF)}"` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(`"${sha256(PDF)}"`);
    expect((await fetch(linkPath(pdf.public_link), { headers: { 'If-None-Match': 'W/"other"' } })).status).toBe(200);

    // Fetched HTML is never a page of this origin: a download, not sniffed, sandboxed.
    const html = await create({ url: `${base}/files/page.html` });
    await fetchDocument(deps, html.id);
    const page = await fetch(linkPath(html.public_link));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html');
    expect(page.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain('sandbox');

    // The link is a credential: log lines never carry its token.
    const token = new URL(pdf.public_link).pathname.split('/').pop()!;
    expect(redact(JSON.stringify({ path: new URL(pdf.public_link).pathname }))).not.toContain(token);
    // Unknown or malformed tokens: 404, and the key is never asked for.
    expect((await fetch(`${linkBase}/documents/public/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${linkBase}/documents/public/short`)).status).toBe(404);
  });

  it('takes the type from the extension when the server says nothing, and the kind from the type', async () => {
    const xlsx = await create({ url: `${base}/files/numbers.xlsx` });
    const csv = await create({ url: `${base}/export`, title: 'Export' });
    expect(await fetchDocument(deps, xlsx.id)).toMatchObject({
      status: 'complete',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(await fetchDocument(deps, csv.id)).toMatchObject({ status: 'complete', contentType: 'text/csv' });
    const data = await gql(key, '{ documents(filter: {kind: {eq: SPREADSHEET}}, first: 100) { nodes { databaseId kind } } }');
    expect(data.documents.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(expect.arrayContaining([xlsx.id, csv.id]));
  });

  it('a fetch that fails ends in error with a short message naming no address; a redirect to a private address too', async () => {
    const missing = await create({ url: `${base}/missing.pdf` });
    expect(await fetchDocument(deps, missing.id)).toEqual({ status: 'error', reason: 'HTTP 404' });
    const shown = (await admin.get(`/documents/${missing.id}.json`)).body;
    expect(shown).toMatchObject({ upload_status: 3, upload_state: 'error', upload_status_error_message: 'HTTP 404', size_in_k: null, etag: null });

    const redirected = await create({ url: `${base}/to-private` });
    expect(await fetchDocument(deps, redirected.id)).toEqual({ status: 'error', reason: 'the address is not public' });
    const body = (await admin.get(`/documents/${redirected.id}.json`)).text;
    expect(body).toContain('the address is not public');
    expect(body).not.toMatch(/10\.1\.2\.3|127\.0\.0\.1:\d+\/to-private|stack|Error:/);
    expect((await fetch(linkPath(shown.public_link))).status).toBe(404);

    // The configured policy refuses loopback unless its host is allowed by name.
    const strict = { ...deps, fetch: documentFetchOptions(testConfig({ DOCUMENT_FETCH_TIMEOUT_MS: '3000' })) };
    const local = await create({ url: `${base}/files/report.pdf` });
    expect(await fetchDocument(strict, local.id)).toEqual({ status: 'error', reason: 'the address is not public' });
    const allowed = { ...deps, fetch: documentFetchOptions(testConfig({ DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1' })) };
    const again = await create({ url: `${base}/files/report.pdf` });
    expect(await fetchDocument(allowed, again.id)).toMatchObject({ status: 'complete' });
  });

  it('refuses bad input with a 422 array naming the field, and writes nothing', async () => {
    const count = async () => Number((await server.sql('select count(*) as n from documents where account_id = ?', [account.accountId]))[0].n);
    const before = await count();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: 'no url' }, 'url', "can't be blank"],
      [{ url: '   ' }, 'url', "can't be blank"],
      [{ url: 'ftp://example.com/a.pdf' }, 'url', 'must be an http or https URL'],
      [{ url: 'javascript:alert(1)' }, 'url', 'must be an http or https URL'],
      [{ url: 'https://user:secret@example.com/a.pdf' }, 'url', 'must not contain a user name or password'],
      [{ url: 'not a url' }, 'url', 'is not a valid URL'],
      [{ url: `https://example.com/${'a'.repeat(2100)}` }, 'url', 'is too long (maximum is 2048 characters)'],
      [{ url: 'https://example.com/a.pdf', deal_id: 999999 }, 'deal_id', 'does not exist'],
      [{ url: 'https://example.com/a.pdf', owner_id: 999999 }, 'owner_id', 'does not exist'],
      [{ url: 'https://example.com/a.pdf', title: 'x'.repeat(256) }, 'title', 'is too long (maximum is 255 characters)'],
      [{ url: 'https://example.com/a.pdf', updated_at: 'yesterday' }, 'updated_at', expect.any(String) as never],
    ];
    for (const [attrs, field, msg] of cases) {
      const res = await admin.post('/documents.json', { document: attrs });
      expect({ attrs, status: res.status, body: res.body }).toEqual({ attrs, status: 422, body: [{ field, humanized_field: expect.any(String), msg }] });
    }
    expect((await admin.post('/documents.json', { document: {} })).body).toEqual([{ field: 'url', humanized_field: 'Url', msg: "can't be blank" }]);
    // An own user may not link a document to a person they cannot see.
    const hidden = await fixtures.person(server, key);
    const refused = await server.v3(own.apiKey).post('/documents.json', { document: { url: 'https://example.com/a.pdf', person_id: hidden } });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 422,
      body: [{ field: 'person_id', humanized_field: 'Person', msg: 'does not exist' }],
    });
    // GraphQL: user errors naming the input field.
    const gq = await gql(key, 'mutation { createDocument(input: {url: "file:///etc/passwd"}) { document { databaseId } userErrors { field code message } } }');
    expect(gq.createDocument).toEqual({ document: null, userErrors: [{ field: ['input', 'url'], code: 'INVALID', message: 'must be an http or https URL' }] });
    expect(await count()).toBe(before);
  });

  it('a new url makes it pending again and fetches again, replacing the stored bytes; a fetch overtaken by a new url records nothing', async () => {
    const doc = await create({ url: `${base}/missing.pdf`, title: 'Contract' });
    await fetchDocument(deps, doc.id);
    expect((await row(doc.id)).upload_status).toBe(3);

    // error → pending on a new url (v3 §3), the error cleared, a new generation
    const changed = await admin.put(`/documents/${doc.id}.json`, { document: { url: `${base}/files/report.pdf` } });
    expect(changed.body).toMatchObject({ upload_status: 1, upload_state: 'pending', upload_status_error_message: null, title: 'Contract' });
    expect(await row(doc.id)).toMatchObject({ fetch_generation: 2, fetch_attempts: 0, fetch_lease_until: null });
    expect(await fetchDocument(deps, doc.id)).toMatchObject({ status: 'complete', etag: sha256(PDF) });
    const firstFiles = filesOf(account.accountId).filter((f) => f.startsWith(`${doc.id}-`));
    expect(firstFiles).toHaveLength(1);

    // A record sent back whole: its old updated_at is not kept (an update is a change now).
    const echoed = await admin.put(`/documents/${doc.id}.json`, { document: { ...changed.body, updated_at: '2001-01-01 00:00' } });
    expect(echoed.body.updated_at).not.toBe('2001/01/01 00:00:00 +0000');
    // Sending back the same url of a complete document changes nothing.
    const same = await admin.put(`/documents/${doc.id}.json`, { document: { url: `${base}/files/report.pdf` } });
    expect(same.body.upload_state).toBe('complete');

    // complete → pending on another url; the old bytes go once the new ones are stored
    await admin.put(`/documents/${doc.id}.json`, { document: { url: `${base}/files/page.html` } });
    expect((await admin.get(`/documents/${doc.id}.json`)).body).toMatchObject({ upload_state: 'pending', size_in_k: null, etag: null });
    expect((await fetch(linkPath(doc.public_link))).status).toBe(404);
    expect(await fetchDocument(deps, doc.id)).toMatchObject({ status: 'complete', etag: sha256(HTML) });
    const secondFiles = filesOf(account.accountId).filter((f) => f.startsWith(`${doc.id}-`));
    expect(secondFiles).toHaveLength(1);
    expect(secondFiles).not.toEqual(firstFiles);
    const served = await fetch(linkPath(doc.public_link));
    expect(Buffer.from(await served.arrayBuffer())).toEqual(HTML);

    // A fetch in flight when the url changes: its bytes are discarded, the new url stays pending.
    hold();
    await admin.put(`/documents/${doc.id}.json`, { document: { url: `${base}/held.pdf` } });
    const inFlight = fetchDocument(deps, doc.id);
    await heldReached;
    await admin.put(`/documents/${doc.id}.json`, { document: { url: `${base}/files/numbers.xlsx` } });
    release();
    expect(await inFlight).toEqual({ status: 'skipped' });
    expect(await row(doc.id)).toMatchObject({ upload_status: 1, fetch_generation: 5 });
    expect(filesOf(account.accountId).filter((f) => f.startsWith(`${doc.id}-`))).toEqual(secondFiles);
    expect(await fetchDocument(deps, doc.id)).toMatchObject({ status: 'complete', etag: sha256(SHEET) });
    expect(filesOf(account.accountId).filter((f) => f.startsWith(`${doc.id}-`))).toHaveLength(1);
  });

  it('survives a worker killed mid-fetch: the lease runs out and the next fetch completes; claims used up end in error', async () => {
    const doc = await create({ url: `${base}/files/report.pdf` });
    // A worker claimed it and died: attempts counted, the lease still running.
    await server.sql(`update documents set fetch_attempts = fetch_attempts + 1, fetch_lease_until = now() + interval '1 hour' where id = ?`, [doc.id]);
    expect(await fetchDocument(deps, doc.id)).toEqual({ status: 'skipped' });
    expect(await dueDocumentIds(server.orm.em.fork(), 10_000)).not.toContain(doc.id);
    await server.sql(`update documents set fetch_lease_until = now() - interval '1 second' where id = ?`, [doc.id]);
    expect(await dueDocumentIds(server.orm.em.fork(), 10_000)).toContain(doc.id);
    expect(await fetchDocument(deps, doc.id)).toMatchObject({ status: 'complete', attempts: 2 });

    const doomed = await create({ url: `${base}/files/report.pdf` });
    await server.sql(`update documents set fetch_attempts = 3, fetch_lease_until = now() - interval '1 second' where id = ?`, [doomed.id]);
    expect(await fetchDocument(deps, doomed.id)).toEqual({ status: 'error', reason: 'the fetch did not finish (tried 3 times)' });
    expect((await admin.get(`/documents/${doomed.id}.json`)).body).toMatchObject({
      upload_status: 3,
      upload_status_error_message: 'the fetch did not finish (tried 3 times)',
    });
    expect(await fetchDocument(deps, doomed.id)).toEqual({ status: 'skipped' });

    // A worker shutting down gives its claim back: still pending, the attempt not counted.
    hold();
    const stopping = await create({ url: `${base}/held.pdf` });
    const abort = new AbortController();
    const cancelled = fetchDocument(deps, stopping.id, abort.signal);
    await heldReached;
    abort.abort();
    expect(await cancelled).toEqual({ status: 'skipped' });
    release();
    expect(await row(stopping.id)).toMatchObject({ upload_status: 1, fetch_attempts: 0, fetch_lease_until: null });
    expect(await fetchDocument(deps, 2_147_483_647)).toEqual({ status: 'skipped' });
  });

  it('replaces the tag set with document tags of the account, ignoring any other id (JSON and form bodies)', async () => {
    const [t1, t2] = [await fixtures.documentTag(server, key), await fixtures.documentTag(server, key)];
    const contactTag = await fixtures.contactTag(server, key);
    const doc = await create({ url: 'https://example.com/tagged.pdf', document_tag_ids: [t2, contactTag, 999999] });
    expect(doc.document_tag_ids).toEqual([t2]);
    const form = await server.request('PUT', `/api/v3/documents/${doc.id}.json`, {
      apiKey: key,
      body: formEncode({ document: { document_tag_ids: [t1, t2, contactTag] } }),
    });
    expect(form.status).toBe(200);
    expect(form.body.document_tag_ids).toEqual([t1, t2].sort((a, b) => a - b));
    expect(form.body.document_tags).toEqual([t1, t2].sort((a, b) => a - b).map((id) => ({ id, name: expect.stringMatching(/^Fixture DOCUMENT_TAG/) })));
    const list = await admin.get('/documents.json', { per_page: 100 });
    expect(list.body.entries.find((e: { id: number }) => e.id === doc.id).document_tag_ids).toEqual([t1, t2].sort((a, b) => a - b));
    const tagged = await gql(key, 'query($t: Int!) { documents(filter: {tagIds: {eq: $t}}) { nodes { databaseId tags { databaseId } } } }', { t: t1 });
    expect(tagged.documents.nodes).toEqual([{ databaseId: doc.id, tags: [t1, t2].sort((a, b) => a - b).map((databaseId) => ({ databaseId })) }]);
    // Other fields of the PUT leave the tags alone; an empty list clears them.
    expect((await admin.put(`/documents/${doc.id}.json`, { document: { title: 'Renamed' } })).body.document_tag_ids).toHaveLength(2);
    expect((await admin.put(`/documents/${doc.id}.json`, { document: { document_tag_ids: [] } })).body).toMatchObject({
      document_tag_ids: [],
      document_tags: [],
    });
  });

  describe('lists', () => {
    let listing: TestAccount;
    let lkey: string;
    let colleague: { id: number; apiKey: string };
    let deal: number;
    let person: number;
    let company: number;
    const made: Record<string, number> = {};

    beforeAll(async () => {
      listing = await server.createAccount();
      lkey = listing.admin.apiKey;
      colleague = await listing.addUser({ isAdmin: false, visibility: Visibility.ALL });
      deal = await fixtures.deal(server, lkey);
      person = await fixtures.person(server, lkey);
      company = await fixtures.company(server, lkey);
      const v3 = server.v3(lkey);
      const add = async (name: string, attrs: Record<string, unknown>) => (made[name] = (await v3.post('/documents.json', { document: attrs })).body.id);
      await add('pdf', { url: `${base}/files/report.pdf`, title: 'Annual Report.pdf', deal_id: deal });
      await add('sheet', { url: `${base}/files/numbers.xlsx`, title: 'budget numbers', person_id: person });
      await add('page', { url: `${base}/files/page.html`, title: 'Landing page', company_id: company });
      await add('loose', { url: 'https://example.com/notes.txt', title: 'zz loose notes', updated_at: '2001-02-03 10:00' });
      await add('theirs', { url: 'https://example.com/slides.pptx', title: 'Their slides', owner_id: colleague.id, deal_id: deal });
      for (const name of ['pdf', 'sheet', 'page']) await fetchDocument(deps, made[name]);
    });

    const list = (query: Record<string, string | number>) => server.v3(lkey).get('/documents.json', query);

    it('lists every document the viewer may see; document_owner (ids or all), user_id and the record filters narrow it', async () => {
      const mine = [made.pdf, made.sheet, made.page, made.loose];
      expect(ids(await list({})).sort()).toEqual([...mine, made.theirs].sort());
      expect(ids(await list({ 'conditions[document_owner]': 'all' })).sort()).toEqual([...mine, made.theirs].sort());
      expect(ids(await list({ 'conditions[document_owner]': listing.admin.id })).sort()).toEqual([...mine].sort());
      expect(ids(await list({ 'conditions[document_owner]': colleague.id }))).toEqual([made.theirs]);
      expect(ids(await list({ 'conditions[user_id]': colleague.id }))).toEqual([made.theirs]);
      expect(ids(await list({ user_id: colleague.id }))).toEqual([made.theirs]);
      expect(ids(await list({ deal_id: deal })).sort()).toEqual([made.pdf, made.theirs].sort());
      expect(ids(await list({ 'conditions[deal_id]': deal })).sort()).toEqual([made.pdf, made.theirs].sort());
      expect(ids(await list({ person_id: person }))).toEqual([made.sheet]);
      expect(ids(await list({ 'conditions[company_id]': company }))).toEqual([made.page]);
      expect(ids(await list({ 'conditions[person_id]': `${person},999999` }))).toEqual([made.sheet]);
    });

    it('filters by name, type, association, upload and modification time', async () => {
      const all = { 'conditions[document_owner]': 'all' };
      expect(ids(await list({ ...all, 'conditions[document_name]': 'REPORT' }))).toEqual([made.pdf]);
      expect(ids(await list({ ...all, 'conditions[document_name]': '100%' }))).toEqual([]);
      expect(ids(await list({ ...all, 'conditions[document_type]': 'pdfs' }))).toEqual([made.pdf]);
      expect(ids(await list({ ...all, 'conditions[document_type]': 'pds' }))).toEqual([made.pdf]);
      expect(ids(await list({ ...all, 'conditions[document_type]': 'spreadsheets' }))).toEqual([made.sheet]);
      expect(ids(await list({ ...all, 'conditions[document_type]': 'presentations' }))).toEqual([made.theirs]);
      expect(ids(await list({ ...all, 'conditions[document_type]': 'documents' })).sort()).toEqual([made.page, made.loose].sort());
      expect(ids(await list({ ...all, 'conditions[document_type]': 'images' }))).toEqual([]);
      expect(ids(await list({ ...all, 'conditions[document_type]': 'all' }))).toHaveLength(5);
      const bad = await list({ 'conditions[document_type]': 'videos' });
      expect({ status: bad.status, field: bad.body[0]?.field }).toEqual({ status: 422, field: 'conditions[document_type]' });

      expect(ids(await list({ ...all, 'conditions[associated_with]': 'deals' })).sort()).toEqual([made.pdf, made.theirs].sort());
      expect(ids(await list({ ...all, 'conditions[associated_with]': 'people' }))).toEqual([made.sheet]);
      expect(ids(await list({ ...all, 'conditions[associated_with]': 'companies' }))).toEqual([made.page]);
      expect(ids(await list({ ...all, 'conditions[associated_with]': 'shared' }))).toEqual([made.loose]);
      expect(ids(await list({ ...all, 'conditions[associated_with]': 'email' }))).toEqual([]);
      expect(ids(await list({ ...all, 'conditions[associated_with]': 'all' }))).toHaveLength(5);

      // Uploaded: only the fetched ones; a range that ends before them finds none.
      expect(ids(await list({ ...all, 'conditions[document_uploaded][from_date]': '2000-01-01' })).sort()).toEqual([made.pdf, made.sheet, made.page].sort());
      expect(ids(await list({ ...all, 'conditions[document_uploaded][to_date]': '2000-01-01' }))).toEqual([]);
      expect(ids(await list({ ...all, 'conditions[document_modified][to_date]': '2001-12-31' }))).toEqual([made.loose]);
      const badRange = await list({ 'conditions[document_modified][from_date]': 'someday' });
      expect({ status: badRange.status, field: badRange.body[0]?.field }).toEqual({ status: 422, field: 'conditions[document_modified][from_date]' });
    });

    it('sorts by whitelisted columns only; pages 30 by default, at most 100', async () => {
      const all = { 'conditions[document_owner]': 'all' };
      const titles = async (sort: string) => (await list({ ...all, sort })).body.entries.map((e: { title: string }) => e.title);
      expect(await titles('title')).toEqual(['Annual Report.pdf', 'budget numbers', 'Landing page', 'Their slides', 'zz loose notes']);
      expect(await titles('-documents.title')).toEqual(['zz loose notes', 'Their slides', 'Landing page', 'budget numbers', 'Annual Report.pdf']);
      const sizes = (await list({ ...all, sort: 'size_in_k' })).body.entries.map((e: { size_in_k: number | null }) => e.size_in_k);
      expect(sizes).toEqual([1, 1, 3, null, null]);
      expect((await list({ ...all, sort: '-created_at' })).body.entries[0].id).toBe(made.theirs);
      expect((await list({ ...all, sort: 'updated_at' })).body.entries[0].id).toBe(made.loose);
      for (const sort of ['url', 'people.title', 'storage_key']) {
        const res = await list({ sort });
        expect({ sort, status: res.status, field: res.body[0]?.field }).toEqual({ sort, status: 422, field: 'sort' });
      }
      expect((await list({})).body.pagination).toMatchObject({ page: 1, per_page: 30, total: 5, pages: 1 });
      expect((await list({ per_page: 500 })).body.pagination.per_page).toBe(100);
      expect((await list({ ...all, per_page: 2, page: 3, sort: 'title' })).body).toMatchObject({
        entries: [{ title: 'zz loose notes' }],
        pagination: { page: 3, per_page: 2, total: 5, pages: 3 },
      });
    });

    it('lists the documents of a deal, a person, a company (a parent the viewer cannot see is a 404)', async () => {
      const v3 = server.v3(lkey);
      expect(ids(await v3.get(`/deals/${deal}/documents.json`)).sort()).toEqual([made.pdf, made.theirs].sort());
      expect(ids(await v3.get(`/people/${person}/documents.json`))).toEqual([made.sheet]);
      expect(ids(await v3.get(`/companies/${company}/documents.json`))).toEqual([made.page]);
      expect((await v3.get(`/deals/${deal}/documents.json`)).body.pagination.per_page).toBe(30);
      expect((await v3.get('/deals/999999/documents.json')).status).toBe(404);
      const other = await server.v3(key).get(`/deals/${deal}/documents.json`);
      expect({ status: other.status, text: other.text }).toEqual({ status: 404, text: '' });
      const nested = await gql(
        lkey,
        'query($id: Int!) { deal(id: $id) { documents { totalCount nodes { databaseId deal { databaseId } owner { databaseId } } } } }',
        { id: deal },
      );
      expect(nested.deal.documents.totalCount).toBe(2);
    });
  });

  it('a document is visible to its owner and through its linked records, on every path', async () => {
    const ownClient = server.v3(own.apiKey);
    const ownPerson = (await ownClient.post('/people.json', { person: { last_name: 'Owned' } })).body.id;
    const adminPerson = await fixtures.person(server, key);
    const mine = await create({ url: 'https://example.com/mine.pdf' }, own.apiKey);
    const hidden = await create({ url: `${base}/files/report.pdf`, person_id: adminPerson });
    const throughLink = await create({ url: 'https://example.com/linked.pdf', person_id: ownPerson });
    await fetchDocument(deps, hidden.id);

    const listed = ids(await ownClient.get('/documents.json', { 'conditions[document_owner]': 'all', per_page: 100 }));
    expect(listed).toEqual(expect.arrayContaining([mine.id, throughLink.id]));
    expect(listed).not.toContain(hidden.id);
    expect(ids(await ownClient.get('/documents.json', { 'conditions[document_owner]': own.id }))).toEqual([mine.id]);
    expect((await ownClient.get(`/documents/${throughLink.id}.json`)).status).toBe(200);

    for (const res of [
      await ownClient.get(`/documents/${hidden.id}.json`),
      await ownClient.put(`/documents/${hidden.id}.json`, { document: { title: 'hack', url: 'https://example.com/x' } }),
      await ownClient.del(`/documents/${hidden.id}.json`),
    ]) {
      expect({ status: res.status, text: res.text }).toEqual({ status: 404, text: '' });
    }
    const nodeId = (await gql(key, 'query($id: Int!) { document(id: $id) { id } }', { id: hidden.id })).document.id;
    const seen = await gql(own.apiKey, 'query($id: ID!, $db: Int!) { node(id: $id) { id } nodes(ids: [$id]) { id } document(id: $db) { id } }', {
      id: nodeId,
      db: hidden.id,
    });
    expect(seen).toEqual({ node: null, nodes: [null], document: null });
    const reset = await gql(own.apiKey, 'mutation($id: Int!) { resetDocumentPublicLink(id: $id) { document { publicLink } userErrors { field code } } }', {
      id: hidden.id,
    });
    expect(reset.resetDocumentPublicLink).toEqual({ document: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
    const adminSees = await gql(key, 'query($id: ID!) { node(id: $id) { ... on Document { databaseId title } } }', { id: nodeId });
    expect(adminSees.node).toEqual({ databaseId: hidden.id, title: 'report.pdf' });
    // Unchanged by the refused writes.
    expect(await row(hidden.id)).toMatchObject({ title: 'report.pdf', upload_status: 2 });

    // The owner resets the link: the old one stops working, the new one serves the bytes.
    const fresh = await gql(key, 'mutation($id: Int!) { resetDocumentPublicLink(id: $id) { document { publicLink } userErrors { field } } }', {
      id: hidden.id,
    });
    const newLink = fresh.resetDocumentPublicLink.document.publicLink;
    expect(newLink).not.toBe(hidden.public_link);
    expect((await fetch(linkPath(hidden.public_link))).status).toBe(404);
    expect((await fetch(linkPath(newLink))).status).toBe(200);
  });

  it('deletes the document (200, empty) and its stored bytes; the public link then answers 404', async () => {
    const doc = await create({ url: `${base}/files/report.pdf` });
    await fetchDocument(deps, doc.id);
    const stored = filesOf(account.accountId).filter((f) => f.startsWith(`${doc.id}-`));
    expect(stored).toHaveLength(1);
    expect((await fetch(linkPath(doc.public_link))).status).toBe(200);

    const res = await admin.del(`/documents/${doc.id}.json`);
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
    expect(filesOf(account.accountId).filter((f) => f.startsWith(`${doc.id}-`))).toEqual([]);
    expect((await fetch(linkPath(doc.public_link))).status).toBe(404);
    expect((await admin.get(`/documents/${doc.id}.json`)).status).toBe(404);
    const again = await admin.del(`/documents/${doc.id}.json`);
    expect({ status: again.status, text: again.text }).toEqual({ status: 404, text: '' });
    // A fetch of a deleted document does nothing.
    expect(await fetchDocument(deps, doc.id)).toEqual({ status: 'skipped' });
  });

  it('enqueues the fetch after the commit, on create and on a new url only; a refused write enqueues nothing', async () => {
    const enqueued: Array<{ name: JobName; data: unknown; committed: boolean }> = [];
    const viewer = (await viewerForUser(server.orm.em.fork(), account.admin.id))!;
    const ctx = createContext(server.orm, viewer, 'documents-queue-test', {
      jobs: {
        enqueue: async <N extends JobName>(name: N, data: JobPayloads[N]) => {
          // Seen by another connection: the row is committed before the job exists.
          const committed = (await server.sql('select count(*) as n from documents where id = ?', [(data as { documentId: number }).documentId]))[0].n > 0;
          enqueued.push({ name, data, committed });
        },
      },
    });
    const service = new DocumentService(ctx);
    const doc = await service.create({ url: `${base}/files/report.pdf` });
    expect(enqueued).toEqual([{ name: 'fetch-document', data: { documentId: doc.id }, committed: true }]);
    await service.update(doc.id, { title: 'Renamed' });
    await service.update(doc.id, { url: `${base}/files/report.pdf` });
    expect(enqueued).toHaveLength(1);
    await service.update(doc.id, { url: `${base}/files/page.html` });
    expect(enqueued).toHaveLength(2);
    await expect(service.create({ url: 'ftp://example.com/x' })).rejects.toThrow(/url/);
    await expect(service.update(doc.id, { url: `${base}/other.pdf`, dealId: 999999 })).rejects.toThrow(/dealId/);
    expect(enqueued).toHaveLength(2);
    expect(await row(doc.id)).toMatchObject({ fetch_generation: 2, title: 'Renamed' });
  });

  it('GraphQL: create, read with relations, update, delete', async () => {
    const deal = await fixtures.deal(server, key, { name: 'Docs deal' });
    const tag = await fixtures.documentTag(server, key);
    const made = await gql(
      key,
      `mutation($input: DocumentCreateInput!) { createDocument(input: $input) {
        document { databaseId title kind uploadStatus uploadState ownerId owner { databaseId } dealId deal { name } tagIds tags { databaseId } publicLink }
        userErrors { field message } } }`,
      { input: { url: 'https://example.com/a%20deck.pptx', dealId: deal, tagIds: [tag] } },
    );
    expect(made.createDocument.userErrors).toEqual([]);
    const doc = made.createDocument.document;
    expect(doc).toMatchObject({
      title: 'a deck.pptx',
      kind: 'PRESENTATION',
      uploadStatus: 1,
      uploadState: 'PENDING',
      ownerId: account.admin.id,
      owner: { databaseId: account.admin.id },
      dealId: deal,
      deal: { name: 'Docs deal' },
      tagIds: [tag],
      tags: [{ databaseId: tag }],
    });
    const listed = await gql(
      key,
      'query($d: Int!) { documents(filter: {dealId: {eq: $d}, uploadState: {eq: PENDING}, associatedWith: {in: [DEALS]}}) { totalCount nodes { databaseId } } }',
      { d: deal },
    );
    expect(listed.documents).toEqual({ totalCount: 1, nodes: [{ databaseId: doc.databaseId }] });
    const updated = await gql(
      key,
      'mutation($id: Int!) { updateDocument(id: $id, input: {title: "Deck", dealId: null}) { document { title dealId uploadState } userErrors { field } } }',
      { id: doc.databaseId },
    );
    expect(updated.updateDocument).toEqual({ document: { title: 'Deck', dealId: null, uploadState: 'PENDING' }, userErrors: [] });
    const blank = await gql(key, 'mutation($id: Int!) { updateDocument(id: $id, input: {title: " "}) { document { title } userErrors { field code } } }', {
      id: doc.databaseId,
    });
    expect(blank.updateDocument).toEqual({ document: null, userErrors: [{ field: ['input', 'title'], code: 'BLANK' }] });
    const deleted = await gql(key, 'mutation($id: Int!) { deleteDocument(id: $id) { deletedDatabaseId userErrors { field } } }', { id: doc.databaseId });
    expect(deleted.deleteDocument).toEqual({ deletedDatabaseId: doc.databaseId, userErrors: [] });
  });
});
