import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Conditional reads on v3 (issue 26 §2, the part built so far): every 200 to a GET carries an
 * ETag (strong on a record, weak on a list), the SHA-256 of the bytes answered; `If-None-Match`
 * naming it answers 304 with no body; any change to what the answer holds, a convenience object
 * included, changes it.
 */
describe('ETag and If-None-Match on v3 reads', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  const get = (path: string, headers: Record<string, string> = {}) => server.request('GET', `/api/v3${path}`, { apiKey: account.admin.apiKey, headers });

  it('a record: a strong ETag; 304 for it; a new one after a write, also of a convenience object', async () => {
    const v3 = server.v3(account.admin.apiKey);
    const company = (await v3.post('/companies.json', { company: { name: 'Tagged Co' } })).body;
    const deal = (await v3.post('/deals.json', { deal: { name: 'Tagged', company_id: company.id } })).body;
    const first = await get(`/deals/${deal.id}.json`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    // The same answer, the same tag.
    expect((await get(`/deals/${deal.id}.json`)).headers.get('etag')).toBe(etag);

    const unchanged = await get(`/deals/${deal.id}.json`, { 'If-None-Match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(unchanged.headers.get('x-ratelimit-limit')).not.toBeNull();
    // Among others, weakly compared, or `*`.
    expect((await get(`/deals/${deal.id}.json`, { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get(`/deals/${deal.id}.json`, { 'If-None-Match': '*' })).status).toBe(304);
    expect((await get(`/deals/${deal.id}.json`, { 'If-None-Match': '"stale"' })).status).toBe(200);

    // The company's name is part of the deal's answer (its `company` object): renaming it changes the tag.
    await v3.put(`/companies/${company.id}.json`, { company: { name: 'Renamed Co' } });
    const after = await get(`/deals/${deal.id}.json`, { 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(after.body.company.name).toBe('Renamed Co');
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('a list: a weak ETag; 304 while the page reads the same', async () => {
    const first = await get('/deals.json');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
    expect((await get('/deals.json', { 'If-None-Match': etag })).status).toBe(304);
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Another' } });
    expect((await get('/deals.json', { 'If-None-Match': etag })).status).toBe(200);
  });

  it('writes and errors carry no ETag, and a 404 stays a 404 whatever If-None-Match says', async () => {
    const created = await server.request('POST', '/api/v3/deals.json', { apiKey: account.admin.apiKey, body: { deal: { name: 'No tag' } } });
    expect(created.headers.get('etag')).toBeNull();
    const missing = await get('/deals/999999999.json', { 'If-None-Match': '*' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});
