import { join, resolve } from 'node:path';

/** The only reader of process.env: validated, typed and frozen once at start. */
export interface RateLimitTier {
  readonly perSecond: number;
  readonly burst: number;
}

/** A field's own limit (graphql-rate-limit): at most `max` calls per user within any `window` ('30s', '1m', '1h'). */
export interface FieldRateLimit {
  readonly max: number;
  readonly window: string;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Unset: the embedded PostgreSQL under `dataDir` is used. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly embeddedPgPort: number;
  readonly redisUrl: string | undefined;
  /** Namespaces this deployment's keys when a Redis is shared. */
  readonly redisPrefix: string;
  readonly mongoUrl: string | undefined;
  readonly smtpUrl: string | undefined;
  /** `From` of outbox mail (`MAIL_FROM`, e.g. `CRM <crm@example.com>`); its domain names the Message-IDs. */
  readonly mailFrom: string;
  /**
   * Absolute origin clients reach this service at (`PUBLIC_URL`, e.g. `https://crm.example.com`),
   * used in links the service hands out (a document's `public_link`). Unset: the request's own.
   */
  readonly publicUrl: string | undefined;
  /** Whether this process runs the job worker (`RUN_WORKER`, default true; false in API-only processes). */
  readonly runWorker: boolean;
  readonly jobs: {
    /** Jobs one worker runs at once (`JOB_CONCURRENCY`). */
    readonly concurrency: number;
    /** A running job's lock: a worker killed mid-job leaves it to another after this (`JOB_LOCK_LIFETIME_MS`). */
    readonly lockLifetimeMs: number;
    /** How often the sweep enqueues due work that has no job (`JOB_SWEEP_INTERVAL_MS`). */
    readonly sweepIntervalMs: number;
    /** How often an idle worker looks for jobs besides the database's notifications (`JOB_POLL_INTERVAL_MS`). */
    readonly pollIntervalMs: number;
  };
  readonly documents: {
    /** Where fetched bytes are stored (`DOCUMENTS_DIR`, default `<data folder>/documents`). */
    readonly dir: string;
    /** Largest document fetched, bytes (`DOCUMENT_MAX_BYTES`, 25 MB). */
    readonly maxBytes: number;
    /** Whole fetch, redirects included (`DOCUMENT_FETCH_TIMEOUT_MS`). */
    readonly fetchTimeoutMs: number;
    /**
     * Host names fetched even when they resolve to a non-public address
     * (`DOCUMENT_FETCH_ALLOWED_HOSTS`, comma-separated: tests, trusted intranets).
     */
    readonly allowedHosts: readonly string[];
  };
  /** Bulk exports (issue 27 §2). */
  readonly exports: {
    /** Most rows one export writes (`EXPORT_MAX_ROWS`, 5,000,000): more fail with a clear message. */
    readonly maxRows: number;
    /** How long an export's download link works (`EXPORT_LINK_TTL_HOURS`, 24); the sweep then removes the file. */
    readonly linkTtlHours: number;
  };
  /** Bulk imports (issue 27): bounds of one file (each a clear error, docs/imports.md). */
  readonly imports: {
    /** Largest uploaded or fetched file, bytes (`IMPORT_MAX_BYTES`, 1 GiB). */
    readonly maxBytes: number;
    /** Data rows one file may hold (`IMPORT_MAX_ROWS`, 2,000,000). */
    readonly maxRows: number;
    /** Columns one file may have (`IMPORT_MAX_COLUMNS`, 500). */
    readonly maxColumns: number;
    /** Characters one cell may hold (`IMPORT_MAX_CELL_CHARS`, 100,000). */
    readonly maxCellChars: number;
    /** Rows staged (COPY) per transaction and applied per transaction (`IMPORT_BATCH_ROWS`, 10,000). */
    readonly batchRows: number;
    /** Days a finished import keeps its file (the failed-rows download reads it) before the sweep removes it (`IMPORT_FILE_RETENTION_DAYS`, 7). */
    readonly fileRetentionDays: number;
  };
  readonly rateLimit: { readonly user: RateLimitTier; readonly app: RateLimitTier };
  /**
   * Limits replacing those declared on expensive fields with `@RateLimit` (src/graphql/field-rate-limit.ts),
   * by `Type.field` (`FIELD_RATE_LIMITS=Mutation.createDocument=30/1m,...`); a name without a declared limit stops the server.
   */
  readonly fieldRateLimits: Readonly<Record<string, FieldRateLimit>>;
  readonly maxBodyBytes: number;
  /** Failed authentications per client address: a bucket of `burst`, refilled at `perSecond`. */
  readonly authFailureLimit: RateLimitTier;
  /** Per-connection `statement_timeout`: a runaway statement is cancelled and answered 503. */
  readonly statementTimeoutMs: number;
  /** On SIGTERM, how long in-flight requests may run before their connections are cut. */
  readonly shutdownGraceMs: number;
  /** `CHANGES_RETENTION_DAYS` (30): how long recorded changes are kept for the change feed and webhooks; the sweep prunes older ones. */
  readonly changesRetentionDays: number;
  /** How long an Idempotency-Key's answer is kept for retries (`IDEMPOTENCY_KEY_TTL_HOURS`, 24). */
  readonly idempotencyKeyTtlHours: number;
  /** The most one /graphql operation may cost, in v3 requests (see src/graphql/cost.ts). */
  readonly graphqlMaxCost: number;
  /**
   * Browser origins allowed to call `/graphql` and `/api/v3` (CORS): `*` for any, a list of exact
   * origins, or none. Credentials never travel by cookie, so no origin is ever given them.
   */
  readonly corsOrigins: '*' | readonly string[];
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * `METRICS_TOKEN`: the bearer token `/metrics` asks for. Set: required in every environment.
   * Unset: /metrics is open in development and answers 404 in production (docs/operations.md).
   */
  readonly metricsToken: string | undefined;
  readonly development: boolean;
  /**
   * GraphQL leaf values are checked instead of written unconverted (`GRAPHQL_STRICT_LEAVES`;
   * default on under test, `NODE_ENV=test`): src/graphql/leaf-values.ts.
   */
  readonly graphqlStrictLeaves: boolean;
  /** Where the project lives: embedded data goes under it. */
  readonly projectRoot: string;
}

export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function optionalUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  return raw;
}

/** `MAIL_FROM`: one address, bare or `Name <address>`; a line break would forge headers. */
function mailFrom(env: Env): string {
  const raw = env.MAIL_FROM?.trim();
  if (raw === undefined || raw === '') return 'CRM <crm@localhost>';
  if (/[\r\n]/.test(raw) || !/^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(raw)) {
    throw new ConfigError(`MAIL_FROM must be one address, "crm@example.com" or "CRM <crm@example.com>", got "${raw}"`);
  }
  return raw;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** `PUBLIC_URL`: an http(s) origin, a trailing slash dropped; a path is refused (links are built from the root). */
function publicUrl(env: Env): string | undefined {
  const raw = env.PUBLIC_URL?.trim().replace(/\/+$/, '');
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL is not a valid URL');
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== raw)
    throw new ConfigError(`PUBLIC_URL must be an origin like https://crm.example.com, got "${raw}"`);
  return raw;
}

/** `DOCUMENT_FETCH_ALLOWED_HOSTS`: host names, lower-cased; no wildcards (each trusted host named). */
function hostList(env: Env, name: string): readonly string[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return Object.freeze([]);
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts) {
    if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$|^[0-9.]+$/.test(host)) throw new ConfigError(`${name}: "${host}" is not a host name`);
  }
  return Object.freeze(hosts);
}

const WINDOW_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A limit's window in milliseconds: `500ms`, `30s`, `1m`, `1h` (what graphql-rate-limit's `window` reads them as); undefined when not of that form. */
export function parseWindow(window: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h)$/.exec(window);
  const value = match ? Number(match[1]) * WINDOW_UNITS[match[2]] : 0;
  return value > 0 ? value : undefined;
}

/** `FIELD_RATE_LIMITS`: comma-separated `Type.field=max/window`, e.g. `Mutation.createDocument=30/1m`. */
function fieldRateLimits(env: Env): Readonly<Record<string, FieldRateLimit>> {
  const limits: Record<string, FieldRateLimit> = {};
  for (const entry of (env.FIELD_RATE_LIMITS ?? '').split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^([A-Za-z_]\w*\.[A-Za-z_]\w*)=(\d+)\/(\w+)$/.exec(entry);
    if (!match || Number(match[2]) < 1 || parseWindow(match[3]) === undefined) {
      throw new ConfigError(`FIELD_RATE_LIMITS: "${entry}" is not Type.field=max/window (a window like 30s, 1m, 1h), e.g. Mutation.createDocument=30/1m`);
    }
    limits[match[1]] = Object.freeze({ max: Number(match[2]), window: match[3] });
  }
  return Object.freeze(limits);
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** `METRICS_TOKEN`: at least 32 characters of a bearer token's alphabet (RFC 6750 token68), e.g. `openssl rand -hex 32`. */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32 || raw.length > 512 || !/^[A-Za-z0-9._~+/-]+=*$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be 32 to 512 characters of letters, digits and -._~+/ (e.g. the output of `openssl rand -hex 32`)');
  }
  return raw;
}

/**
 * `CORS_ORIGINS`: `*`, or comma-separated origins (`https://app.example.com,http://localhost:5173`).
 * Unset: any origin in development, none in production.
 */
function corsOrigins(env: Env, development: boolean): '*' | readonly string[] {
  const raw = env.CORS_ORIGINS?.trim();
  if (raw === undefined || raw === '') return development ? '*' : [];
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let url: URL | null;
    try {
      url = new URL(origin);
    } catch {
      url = null;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin || !/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i.test(url.hostname)) {
      throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path or trailing slash), or use *`);
    }
  }
  return Object.freeze(origins);
}

export function loadConfig(env: Env = process.env): Config {
  const projectRoot = resolve(__dirname, '..', '..', ...(__dirname.includes(`${'/'}dist${'/'}`) ? ['..'] : []));
  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const config: Config = {
    port: positiveNumber(env, 'PORT', 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: optionalUrl(env, 'DATABASE_URL'),
    dataDir: resolve(projectRoot, env.DATA_DIR ?? '.data'),
    embeddedPgPort: positiveNumber(env, 'EMBEDDED_PG_PORT', 54329),
    redisUrl: optionalUrl(env, 'REDIS_URL'),
    redisPrefix: env.REDIS_PREFIX ?? 'crm:',
    mongoUrl: optionalUrl(env, 'MONGODB_URL'),
    smtpUrl: optionalUrl(env, 'SMTP_URL'),
    mailFrom: mailFrom(env),
    publicUrl: publicUrl(env),
    runWorker: flag(env, 'RUN_WORKER', true),
    jobs: {
      concurrency: Math.ceil(positiveNumber(env, 'JOB_CONCURRENCY', 5)),
      lockLifetimeMs: positiveNumber(env, 'JOB_LOCK_LIFETIME_MS', 120_000),
      sweepIntervalMs: positiveNumber(env, 'JOB_SWEEP_INTERVAL_MS', 30_000),
      pollIntervalMs: positiveNumber(env, 'JOB_POLL_INTERVAL_MS', 5_000),
    },
    documents: {
      dir: resolve(projectRoot, env.DOCUMENTS_DIR ?? join(env.DATA_DIR ?? '.data', 'documents')),
      maxBytes: Math.ceil(positiveNumber(env, 'DOCUMENT_MAX_BYTES', 25 * 1024 * 1024)),
      fetchTimeoutMs: positiveNumber(env, 'DOCUMENT_FETCH_TIMEOUT_MS', 30_000),
      allowedHosts: hostList(env, 'DOCUMENT_FETCH_ALLOWED_HOSTS'),
    },
    exports: {
      maxRows: Math.floor(positiveNumber(env, 'EXPORT_MAX_ROWS', 5_000_000)),
      linkTtlHours: positiveNumber(env, 'EXPORT_LINK_TTL_HOURS', 24),
    },
    imports: {
      maxBytes: Math.ceil(positiveNumber(env, 'IMPORT_MAX_BYTES', 1024 * 1024 * 1024)),
      maxRows: Math.ceil(positiveNumber(env, 'IMPORT_MAX_ROWS', 2_000_000)),
      maxColumns: Math.ceil(positiveNumber(env, 'IMPORT_MAX_COLUMNS', 500)),
      maxCellChars: Math.ceil(positiveNumber(env, 'IMPORT_MAX_CELL_CHARS', 100_000)),
      batchRows: Math.ceil(positiveNumber(env, 'IMPORT_BATCH_ROWS', 10_000)),
      fileRetentionDays: positiveNumber(env, 'IMPORT_FILE_RETENTION_DAYS', 7),
    },
    rateLimit: {
      user: { perSecond: positiveNumber(env, 'RATE_LIMIT_PER_SECOND', 5), burst: positiveNumber(env, 'RATE_LIMIT_BURST', 10) },
      app: { perSecond: positiveNumber(env, 'APP_RATE_LIMIT_PER_SECOND', 10), burst: positiveNumber(env, 'APP_RATE_LIMIT_BURST', 20) },
    },
    fieldRateLimits: fieldRateLimits(env),
    maxBodyBytes: positiveNumber(env, 'MAX_BODY_BYTES', 1024 * 1024),
    authFailureLimit: { perSecond: positiveNumber(env, 'AUTH_FAILURE_PER_SECOND', 1), burst: positiveNumber(env, 'AUTH_FAILURE_BURST', 20) },
    statementTimeoutMs: Math.ceil(positiveNumber(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5000)),
    shutdownGraceMs: positiveNumber(env, 'SHUTDOWN_GRACE_MS', 10_000),
    changesRetentionDays: positiveNumber(env, 'CHANGES_RETENTION_DAYS', 30),
    idempotencyKeyTtlHours: positiveNumber(env, 'IDEMPOTENCY_KEY_TTL_HOURS', 24),
    graphqlMaxCost: positiveNumber(env, 'GRAPHQL_MAX_COST', 50),
    corsOrigins: corsOrigins(env, env.NODE_ENV !== 'production'),
    logLevel,
    metricsToken: metricsToken(env),
    development: env.NODE_ENV !== 'production',
    graphqlStrictLeaves: flag(env, 'GRAPHQL_STRICT_LEAVES', env.NODE_ENV === 'test'),
    projectRoot,
  };
  // A job's lock (and the lease of the row it works on) must outlast the longest fetch, or a
  // second worker would take a document whose fetch is still running.
  if (config.jobs.lockLifetimeMs < config.documents.fetchTimeoutMs + 5_000) {
    throw new ConfigError(
      `JOB_LOCK_LIFETIME_MS (${config.jobs.lockLifetimeMs}) must exceed DOCUMENT_FETCH_TIMEOUT_MS (${config.documents.fetchTimeoutMs}) by at least 5000`,
    );
  }
  return Object.freeze(config);
}

/**
 * What `npm start` needs beyond a valid environment: in production a `DATABASE_URL`. The embedded
 * PostgreSQL (and the demo admin key seeded into it) is for development only; a production server
 * without a database of its own refuses to start instead of serving an empty one.
 */
export function checkServerConfig(config: Pick<Config, 'development' | 'databaseUrl'>): void {
  if (!config.development && !config.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL is not set: with NODE_ENV=production the server needs DATABASE_URL=postgres://user:password@host:5432/crm (the embedded PostgreSQL is for development only)',
    );
  }
}
