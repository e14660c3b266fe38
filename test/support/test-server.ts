import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/config';
import { AccountAdmin, type NewUser } from '../../src/modules/accounts/account.service';
import { startServer, type RunningServer } from '../../src/server';
import type { Clock } from '../../src/common/clock';
import { Visibility } from '../../src/modules/users/user.entity';

export interface TestServer extends RunningServer {
  /** GET/POST/PUT/DELETE against the server, returning status, headers and parsed JSON (or raw text). */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** The v3 routes as one user: `v3(key).get('/people.json', {page: 2})`; paths are under /api/v3. */
  v3(apiKey: string): V3Client;
  /** Raw SQL against the test database, for assertions on what was stored. */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** POST /graphql with the given key. */
  graphql(apiKey: string, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<TestResponse>;
  /** A fresh account with its admin (keys via the same code path as the CLI). */
  createAccount(options?: { timeZone?: string; currency?: string }): Promise<TestAccount>;
}

type Query = Record<string, string | number | boolean>;

export interface V3Client {
  get(path: string, query?: Query): Promise<TestResponse>;
  post(path: string, body?: unknown, query?: Query): Promise<TestResponse>;
  put(path: string, body?: unknown, query?: Query): Promise<TestResponse>;
  del(path: string): Promise<TestResponse>;
}

export interface TestAccount {
  readonly accountId: number;
  readonly admin: { readonly id: number; readonly apiKey: string };
  addUser(options?: Partial<NewUser>): Promise<{ id: number; apiKey: string }>;
}

export interface RequestOptions {
  readonly apiKey?: string;
  readonly query?: Record<string, string | number | boolean>;
  /** Object: sent as JSON. String: sent as is, with `contentType` (default form-urlencoded). */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

/** High limits unless a test is about rate limiting. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: '1',
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_SECOND: '10000',
    RATE_LIMIT_BURST: '10000',
    APP_RATE_LIMIT_PER_SECOND: '10000',
    APP_RATE_LIMIT_BURST: '10000',
    AUTH_FAILURE_PER_SECOND: '10000',
    AUTH_FAILURE_BURST: '10000',
    FIELD_RATE_LIMITS: 'Mutation.createDocument=10000/1m, Mutation.resetDocumentPublicLink=10000/1m',
    // No worker unless a test is about jobs: a worker's sweep would act on other tests' rows.
    RUN_WORKER: 'false',
    DOCUMENTS_DIR: join(tmpdir(), `crm-test-documents-${process.pid}`),
    // Every leaf value a test produces is checked against what production writes unconverted (src/graphql/leaf-values.ts).
    GRAPHQL_STRICT_LEAVES: 'true',
    ...overrides,
  });
}

/** `databaseUrl`: another database than the run's (see own-database.ts). `clock`: pins the time of the server's rules ("today", "late", a series' horizon), e.g. a FixedClock. */
export async function startTestServer(env: Record<string, string> = {}, options: { clock?: Clock; databaseUrl?: string } = {}): Promise<TestServer> {
  const url = options.databaseUrl ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run through jest (global setup creates it)');
  const server = await startServer(testConfig(env), url, { port: 0, host: '127.0.0.1', clock: options.clock });

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const target = new URL(path, server.url);
    if (options.apiKey) target.searchParams.set('api_key', options.apiKey);
    for (const [k, v] of Object.entries(options.query ?? {})) target.searchParams.append(k, String(v));
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (typeof options.body === 'string') {
      body = options.body;
      headers['content-type'] ??= options.contentType ?? 'application/x-www-form-urlencoded';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= options.contentType ?? 'application/json';
    }
    const res = await fetch(target, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };

  const graphql = (apiKey: string, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request('POST', '/graphql', { body: { query, variables }, headers: { authorization: `Bearer ${apiKey}`, ...headers } });

  const createAccount = async (options: { timeZone?: string; currency?: string } = {}): Promise<TestAccount> => {
    const em = server.orm.em.fork();
    const tag = randomBytes(4).toString('hex');
    const { account, user, apiKey } = await new AccountAdmin(em).createAccount({
      name: `Account ${tag}`,
      timeZone: options.timeZone ?? 'UTC',
      currency: options.currency,
      admin: { email: `admin-${tag}@example.test`, firstName: 'Ada', lastName: `Admin${tag}` },
    });
    return {
      accountId: account.id,
      admin: { id: user.id, apiKey },
      async addUser(input: Partial<NewUser> = {}) {
        const u = await new AccountAdmin(server.orm.em.fork()).createUser(account.id, {
          email: input.email ?? `user-${randomBytes(4).toString('hex')}@example.test`,
          firstName: input.firstName ?? 'Uma',
          lastName: input.lastName ?? 'User',
          timeZone: input.timeZone ?? null,
          isAdmin: input.isAdmin ?? false,
          visibility: input.visibility ?? Visibility.ALL,
        });
        return { id: u.user.id, apiKey: u.apiKey };
      },
    };
  };

  const v3 = (apiKey: string): V3Client => ({
    get: (path, query) => request('GET', `/api/v3${path}`, { apiKey, query }),
    post: (path, body, query) => request('POST', `/api/v3${path}`, { apiKey, body, query }),
    put: (path, body, query) => request('PUT', `/api/v3${path}`, { apiKey, body, query }),
    del: (path) => request('DELETE', `/api/v3${path}`, { apiKey }),
  });
  const sql = <T = any>(text: string, params: unknown[] = []) => server.orm.em.fork().getConnection().execute<T[]>(text, params, 'all');

  return { ...server, close: () => server.close(), request, graphql, createAccount, v3, sql };
}

/** Form-encodes nested params the way Rails-style clients do: {person: {first_name: 'x'}} → person[first_name]=x. */
export function formEncode(params: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const walk = (prefix: string, value: unknown) => {
    if (Array.isArray(value)) value.forEach((v) => walk(`${prefix}[]`, v));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(prefix ? `${prefix}[${k}]` : k, v);
    else out.append(prefix, value === null || value === undefined ? '' : String(value));
  };
  walk('', params);
  return out.toString();
}

/** A started server with one fresh account in it: the usual start of a test file. */
export async function openServerWithAccount(
  options: { timeZone?: string; currency?: string } = {},
): Promise<{ server: TestServer; account: TestAccount; key: string }> {
  const server = await startTestServer();
  const account = await server.createAccount(options);
  return { server, account, key: account.admin.apiKey };
}

/** `describe` when a Redis is reachable (see global setup), else `describe.skip`. */
export const describeWithRedis: jest.Describe = process.env.TEST_REDIS_URL ? describe : describe.skip;

/**
 * Two API servers on one Redis under a fresh key prefix, as two processes would share it (each has
 * its own limiter and Redis connection). Call inside a `describeWithRedis` block; `env` adds limits.
 */
export function serversSharingRedis(env: Record<string, string>): { readonly a: () => TestServer; readonly b: () => TestServer } {
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  const shared = { REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: `crmtest:${randomBytes(4).toString('hex')}:`, ...env };
  beforeAll(async () => {
    a = await startTestServer(shared);
    b = await startTestServer(shared);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  return { a: () => a!, b: () => b! };
}
