import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../src/config/config';
import { MAX_OPERATION_NAMES } from '../../src/common/metrics';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * /metrics (issue 25 §3): Prometheus text; latency by route template (never a path), GraphQL
 * operations from a bounded set of names, refusals, the pool, jobs and webhooks; open in
 * development, behind METRICS_TOKEN when one is set, absent in production without one.
 */

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"/g;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const COMMENT = new RegExp(`^# (?:HELP ${NAME} .*|TYPE ${NAME} (?:counter|gauge|histogram|summary|untyped))$`);

/** The Prometheus text format (0.0.4), line by line: every line must be a comment, a sample or empty. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      if (!COMMENT.test(line)) throw new Error(`not a HELP or TYPE line: ${line}`);
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1], type[2]);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const rest = (m[2] ?? '').replace(LABEL, (_, k: string, v: string) => {
      labels[k] = v;
      return '';
    });
    if (!/^,*$/.test(rest)) throw new Error(`malformed labels: ${line}`);
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    // prom-client writes NaN as `Nan` (an empty event-loop histogram); Prometheus reads floats in any case.
    if (Number.isNaN(value) && !/^nan$/i.test(m[3])) throw new Error(`not a value: ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  return { samples, types };
}

const find = (samples: readonly Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

async function scrape(server: TestServer, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/metrics`, { headers });
  const text = await res.text();
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 200, type: 'text/plain; version=0.0.4; charset=utf-8' });
  return parse(text);
}

/**
 * A scrape once `ready` holds of it: a request is counted on its response's 'finish', which may
 * come after the client has read the response.
 */
async function scrapeUntil(server: TestServer, ready: (samples: readonly Sample[]) => boolean) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const scraped = await scrape(server);
    if (ready(scraped.samples) || Date.now() > deadline) return scraped;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const total = (samples: readonly Sample[], name: string, labels: Record<string, string>) => find(samples, name, labels).reduce((n, s) => n + s.value, 0);

describe('/metrics', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server?.close());

  it('labels latency by route template, never by path; GraphQL operations by name; the pool and the process', async () => {
    const created = await server.v3(key).post('/companies.json', { company: { name: 'Metered' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect((await server.v3(key).get(`/companies/${id}.json`)).status).toBe(200);
    expect((await server.v3(key).get(`/companies/${id}`)).status).toBe(200);
    expect((await server.graphql(key, 'query ListCompanies { companies { nodes { id } } }')).status).toBe(200);
    expect((await server.request('GET', `/api/v3/nothing-${id}.json`, { apiKey: key })).status).toBe(404);
    expect((await server.request('GET', `/nowhere/${id}`)).status).toBe(404);
    expect((await server.request('GET', '/healthz')).status).toBe(200);
    await scrape(server); // a scrape is not counted in the histogram: the next one shows none

    const { samples, types } = await scrapeUntil(
      server,
      (got) =>
        total(got, 'http_request_duration_seconds_count', { route: '/healthz' }) >= 1 &&
        total(got, 'http_request_duration_seconds_count', { route: '/api/v3/companies/:id' }) >= 2 &&
        total(got, 'http_request_duration_seconds_count', { route: 'unmatched' }) >= 2,
    );
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const counts = find(samples, 'http_request_duration_seconds_count');
    const count = (labels: Record<string, string>) => total(counts, 'http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/v3/companies/:id', status: '200' })).toBe(2);
    expect(count({ method: 'POST', route: '/api/v3/companies', status: '200' })).toBe(1);
    expect(count({ method: 'POST', route: '/graphql', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/healthz', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(2);
    const routes = new Set(counts.map((s) => s.labels.route));
    expect(routes.has('/metrics')).toBe(false);
    for (const route of routes) expect(route).not.toContain(String(id));
    // The buckets add up to the count, +Inf last.
    const buckets = find(samples, 'http_request_duration_seconds_bucket', { method: 'GET', route: '/api/v3/companies/:id', status: '200' });
    expect(buckets.at(-1)).toMatchObject({ labels: expect.objectContaining({ le: '+Inf' }), value: 2 });

    expect(find(samples, 'crm_graphql_operations_total', { operation: 'ListCompanies', type: 'query', outcome: 'ok' })).toEqual([
      expect.objectContaining({ value: 1 }),
    ]);
    expect(find(samples, 'crm_graphql_operation_duration_seconds_count', { operation: 'ListCompanies' })).toEqual([expect.objectContaining({ value: 1 })]);
    expect(find(samples, 'crm_db_pool_connections', { state: 'max' })[0].value).toBeGreaterThan(0);
    expect(find(samples, 'crm_db_pool_connections', { state: 'used' })).toHaveLength(1);
    expect(find(samples, 'crm_db_pool_pending_acquires')).toHaveLength(1);
    // Read from the job table at scrape, for every job name (an API-only process too).
    expect(find(samples, 'crm_jobs_queued', { job: 'deliver-mail', state: 'due' })).toHaveLength(1);
    expect(find(samples, 'crm_webhook_deliveries_pending')).toHaveLength(1);
    for (const outcome of ['sent', 'retry', 'failed']) expect(find(samples, 'crm_mail_deliveries_total', { outcome })).toHaveLength(1);
    expect(find(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(find(samples, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it('keeps GraphQL operation names to a bounded set: 500 distinct names, at most the cap, the rest as "other"', async () => {
    const names = Array.from({ length: 500 }, () => `Op_${randomBytes(6).toString('hex')}`);
    for (let i = 0; i < names.length; i += 25) {
      const batch = await Promise.all(names.slice(i, i + 25).map((name) => server.graphql(key, `query ${name} { __typename }`)));
      for (const res of batch) expect(res.status).toBe(200);
    }
    await server.graphql(key, '{ __typename }');
    const { samples } = await scrapeUntil(server, (got) => total(got, 'crm_graphql_operations_total', { operation: '(anonymous)' }) >= 1);
    const operations = find(samples, 'crm_graphql_operations_total');
    const labels = new Set(operations.map((s) => s.labels.operation));
    expect(labels.size).toBeLessThanOrEqual(MAX_OPERATION_NAMES + 2); // + "other" and "(anonymous)"
    expect(labels.has('ListCompanies')).toBe(true); // seen before the flood, kept
    expect(labels.has('(anonymous)')).toBe(true);
    const other = operations.filter((s) => s.labels.operation === 'other').reduce((n, s) => n + s.value, 0);
    expect(other).toBeGreaterThanOrEqual(500 - MAX_OPERATION_NAMES);
    const histogramLabels = new Set(find(samples, 'crm_graphql_operation_duration_seconds_count').map((s) => s.labels.operation));
    expect(histogramLabels.size).toBeLessThanOrEqual(MAX_OPERATION_NAMES + 2);
  }, 120_000);

  it('counts rate-limit and cost refusals', async () => {
    const limited = await startTestServer({ RATE_LIMIT_PER_SECOND: '0.001', RATE_LIMIT_BURST: '2' });
    try {
      const before = find((await scrape(limited)).samples, 'crm_rate_limit_refusals_total', { limit: 'requests' })[0].value;
      const costBefore = find((await scrape(limited)).samples, 'crm_graphql_cost_refusals_total')[0].value;
      const limitedKey = (await limited.createAccount()).admin.apiKey;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.v3(limitedKey).get('/companies.json')).status);
      expect(statuses).toEqual([200, 200, 429]);
      // Above GRAPHQL_MAX_COST (50): refused before anything runs (on the first server: the counters are the process's).
      const costly = await server.graphql(key, `{ ${Array.from({ length: 60 }, (_, i) => `c${i}: companies { nodes { id } }`).join(' ')} }`);
      expect(costly.body.errors[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');
      const { samples } = await scrapeUntil(limited, (got) => total(got, 'http_request_duration_seconds_count', { status: '429' }) >= 1);
      expect(find(samples, 'crm_rate_limit_refusals_total', { limit: 'requests' })[0].value).toBe(before + 1);
      expect(find(samples, 'crm_graphql_cost_refusals_total')[0].value).toBe(costBefore + 1);
      expect(find(samples, 'http_request_duration_seconds_count', { route: '/api/v3/companies', status: '429' })[0].value).toBeGreaterThanOrEqual(1);
      expect(find(samples, 'crm_rate_limit_refusals_total', { limit: 'field' })).toHaveLength(1);
      expect(find(samples, 'crm_rate_limit_refusals_total', { limit: 'auth_failures' })).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });

  it('asks for METRICS_TOKEN when one is set (401 with a Bearer challenge), compared whole', async () => {
    const token = randomBytes(24).toString('hex');
    const guarded = await startTestServer({ METRICS_TOKEN: token });
    try {
      const none = await fetch(`${guarded.url}/metrics`);
      expect({ status: none.status, challenge: none.headers.get('www-authenticate') }).toEqual({ status: 401, challenge: 'Bearer realm="metrics"' });
      for (const wrong of [`${token}x`, token.slice(0, -1), randomBytes(24).toString('hex')]) {
        const res = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${wrong}` } });
        expect({ status: res.status, challenge: res.headers.get('www-authenticate') }).toEqual({
          status: 401,
          challenge: 'Bearer realm="metrics", error="invalid_token"',
        });
      }
      // Not in the query string: a token there would end up in proxies' logs.
      expect((await fetch(`${guarded.url}/metrics?token=${token}`)).status).toBe(401);
      const { samples } = await scrape(guarded, { authorization: `Bearer ${token}` });
      expect(find(samples, 'http_request_duration_seconds_count').length).toBeGreaterThan(0);
    } finally {
      await guarded.close();
    }
  });

  it('is not served in production without a token (404), and a token too weak is refused at start', async () => {
    const production = await startTestServer({ NODE_ENV: 'production' });
    try {
      const res = await fetch(`${production.url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'No route matches GET /metrics' });
    } finally {
      await production.close();
    }
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: `${'a'.repeat(40)} b` })).toThrow(ConfigError);
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(40) }).metricsToken).toBe('a'.repeat(40));
  });
});

describe('/metrics with a worker', () => {
  let server: TestServer;
  let receiver: Server;
  let received = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    server = await startTestServer({ RUN_WORKER: 'true', DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1', JOB_POLL_INTERVAL_MS: '200' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => receiver.close(r));
  });

  it('counts jobs by name (running, failed, duration), what waits in the queue, and webhook deliveries', async () => {
    const key = (await server.createAccount()).admin.apiKey;
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const endpoint = await server.graphql(
      key,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { userErrors { field message } } }',
      { input: { url, models: ['DEAL'] } },
    );
    expect(endpoint.body.data.createWebhookEndpoint.userErrors).toEqual([]);
    expect((await server.v3(key).post('/deals.json', { deal: { name: 'Counted' } })).status).toBe(200);

    const deadline = Date.now() + 20_000;
    let samples: Sample[] = [];
    const delivered = () => find(samples, 'crm_job_duration_seconds_count', { job: 'deliver-webhooks', outcome: 'ok' })[0]?.value ?? 0;
    // The recurring sweep shows as scheduled once its first round (at the worker's start) is done.
    const sweepScheduled = () => find(samples, 'crm_jobs_queued', { job: 'sweep', state: 'scheduled' })[0]?.value ?? 0;
    // The receiver counts a request before the sender has read the answer and counted the delivery.
    const deliveredOk = () => find(samples, 'crm_webhook_deliveries_total', { outcome: 'delivered' })[0]?.value ?? 0;
    while (received === 0 || delivered() === 0 || deliveredOk() === 0 || sweepScheduled() === 0) {
      if (Date.now() > deadline) throw new Error(`no webhook delivery counted (${received} received) or no sweep scheduled`);
      await new Promise((r) => setTimeout(r, 100));
      samples = (await scrape(server)).samples;
    }
    expect(find(samples, 'crm_job_duration_seconds_count', { job: 'dispatch-webhooks', outcome: 'ok' })[0].value).toBeGreaterThanOrEqual(1);
    expect(find(samples, 'crm_webhook_deliveries_total', { outcome: 'delivered' })[0].value).toBeGreaterThanOrEqual(1);
    for (const job of ['deliver-mail', 'fetch-document', 'sweep', 'dispatch-webhooks', 'deliver-webhooks']) {
      expect(find(samples, 'crm_jobs_running', { job })).toHaveLength(1);
      expect(find(samples, 'crm_jobs_failed_total', { job })).toHaveLength(1);
      expect(find(samples, 'crm_jobs_queued', { job })).toHaveLength(2); // due and scheduled
    }
    // The recurring sweep waits for its next round.
    expect(find(samples, 'crm_jobs_queued', { job: 'sweep', state: 'scheduled' })[0].value).toBeGreaterThanOrEqual(1);
    expect(find(samples, 'crm_webhook_deliveries_pending')[0].value).toBeGreaterThanOrEqual(0);
  }, 40_000);
});
