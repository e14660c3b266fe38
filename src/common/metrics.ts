import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, in a registry of its own (never prom-client's global one): the
 * metric objects are made once per process, however many servers a process starts (tests start
 * several), and what they read at scrape time (the database pool, the job table) comes from the
 * sources each running server adds (addScrapeSources) and removes when it closes.
 *
 * Every label takes its values from a bounded set: HTTP routes are templates (`/api/v3/deals/:id`),
 * never paths; GraphQL operation names go through `operationNames` (the first ones seen, then
 * `other`); jobs, outcomes and limits are fixed lists. docs/operations.md lists them all.
 */
export const registry = new Registry();

let defaults = false;
/** Process metrics (CPU, memory, event loop lag, GC, handles): once, and only in a process that serves /metrics. */
export function startDefaultMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry });
}

/** Seconds; the service answers most requests within a few milliseconds, so the low buckets are fine-grained. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route template (unmatched for any path no route took) and status; /metrics itself is left out',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** Distinct GraphQL operation names kept as labels; later names are counted as `other`. */
export const MAX_OPERATION_NAMES = 100;

export const graphqlOperations = new Counter({
  name: 'crm_graphql_operations_total',
  help: `/graphql operations by name (the first ${MAX_OPERATION_NAMES} names seen, then "other"; "(anonymous)" for unnamed ones), type and outcome (ok, or error when the response carries errors)`,
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [registry],
});

export const graphqlOperationDuration = new Histogram({
  name: 'crm_graphql_operation_duration_seconds',
  help: '/graphql operations by name (as crm_graphql_operations_total), from the request parsed to the response ready',
  labelNames: ['operation'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** Which limit refused: the per-user token bucket (requests and GraphQL cost), a field's own window, failed authentications per address. */
export type RefusingLimit = 'requests' | 'field' | 'auth_failures';
export const rateLimitRefusals = new Counter({
  name: 'crm_rate_limit_refusals_total',
  help: 'Requests and operations refused by a rate limit (429): limit is requests (the per-user bucket), field (a field’s own window) or auth_failures (per client address)',
  labelNames: ['limit'] as const,
  registers: [registry],
});
for (const limit of ['requests', 'field', 'auth_failures'] satisfies RefusingLimit[]) rateLimitRefusals.inc({ limit }, 0);

export const graphqlCostRefusals = new Counter({
  name: 'crm_graphql_cost_refusals_total',
  help: '/graphql operations refused for costing more than GRAPHQL_MAX_COST (or the caller’s burst): 400 COST_LIMIT_EXCEEDED',
  registers: [registry],
});

export const jobsRunning = new Gauge({
  name: 'crm_jobs_running',
  help: 'Jobs this process is running now, by job name',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobsFailed = new Counter({
  name: 'crm_jobs_failed_total',
  help: 'Job runs that threw (each is retried with backoff, then left to the sweep), by job name',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'crm_job_duration_seconds',
  help: 'Job runs by job name and outcome (ok or failed)',
  labelNames: ['job', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120],
  registers: [registry],
});

export type MailOutcome = 'sent' | 'retry' | 'failed';
export const mailDeliveries = new Counter({
  name: 'crm_mail_deliveries_total',
  help: 'Outbox mail delivery attempts by outcome: sent, retry (failed, tried again later) or failed (given up)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
for (const outcome of ['sent', 'retry', 'failed'] satisfies MailOutcome[]) mailDeliveries.inc({ outcome }, 0);

export type WebhookOutcome = 'delivered' | 'retried' | 'failed';
export const webhookDeliveries = new Counter({
  name: 'crm_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered (2xx), retried (failed, due again later) or failed (given up: 410 or the schedule spent)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
for (const outcome of ['delivered', 'retried', 'failed'] satisfies WebhookOutcome[]) webhookDeliveries.inc({ outcome }, 0);

/** What a running server lets the scrape read; every member optional, each summed over the servers of the process. */
export interface ScrapeSources {
  /** The database pool now (tarn's counts), or null once it is closed. */
  pool?(): { readonly used: number; readonly free: number; readonly pending: number; readonly max: number } | null;
  /** Waiting jobs by name: due now, and scheduled for later. */
  queuedJobs?(): Promise<ReadonlyArray<{ readonly name: string; readonly due: number; readonly scheduled: number }>>;
  /** Webhook deliveries not yet delivered or given up. */
  pendingWebhookDeliveries?(): Promise<number>;
}

const sources = new Set<ScrapeSources>();

/** Adds a server's sources; the returned function removes them (on close). */
export function addScrapeSources(added: ScrapeSources): () => void {
  sources.add(added);
  return () => {
    sources.delete(added);
  };
}

/** A source that fails (the database unreachable) leaves its metrics out of this scrape instead of failing it. */
async function settled<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

new Gauge({
  name: 'crm_db_pool_connections',
  help: 'Database pool connections by state: used (lent to a request or job), free (idle), max (the pool’s size)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    let used = 0;
    let free = 0;
    let max = 0;
    for (const source of sources) {
      const pool = source.pool?.();
      if (!pool) continue;
      used += pool.used;
      free += pool.free;
      max += pool.max;
    }
    this.set({ state: 'used' }, used);
    this.set({ state: 'free' }, free);
    this.set({ state: 'max' }, max);
  },
});

new Gauge({
  name: 'crm_db_pool_pending_acquires',
  help: 'Requests and jobs waiting for a database connection (the pool is exhausted while this is above 0)',
  registers: [registry],
  collect() {
    let pending = 0;
    for (const source of sources) pending += source.pool?.()?.pending ?? 0;
    this.set(pending);
  },
});

/** The job names, so every series exists (at 0) before its first job: set by the jobs module (knownJobs). */
let jobNames: readonly string[] = [];
export function knownJobs(names: readonly string[]): void {
  jobNames = names;
  for (const job of names) {
    jobsRunning.inc({ job }, 0);
    jobsFailed.inc({ job }, 0);
  }
}

new Gauge({
  name: 'crm_jobs_queued',
  help: 'Jobs waiting in the queue by job name and state: due (waiting for a worker) or scheduled (for later: retries, the recurring sweep); read from the job table at scrape',
  labelNames: ['job', 'state'] as const,
  registers: [registry],
  async collect() {
    const counts = new Map<string, { due: number; scheduled: number }>(jobNames.map((name) => [name, { due: 0, scheduled: 0 }]));
    let read = false;
    for (const source of sources) {
      if (!source.queuedJobs) continue;
      const rows = await settled(source.queuedJobs);
      if (!rows) continue;
      read = true;
      for (const row of rows) {
        const count = counts.get(row.name); // only the known names: the label set stays bounded
        if (count) {
          count.due += row.due;
          count.scheduled += row.scheduled;
        }
      }
    }
    this.reset();
    if (!read) return;
    for (const [job, count] of counts) {
      this.set({ job, state: 'due' }, count.due);
      this.set({ job, state: 'scheduled' }, count.scheduled);
    }
  },
});

new Gauge({
  name: 'crm_webhook_deliveries_pending',
  help: 'Webhook deliveries pending (waiting to be sent or retried), read from the database at scrape',
  registers: [registry],
  async collect() {
    let pending = 0;
    let read = false;
    for (const source of sources) {
      if (!source.pendingWebhookDeliveries) continue;
      const count = await settled(source.pendingWebhookDeliveries);
      if (count === undefined) continue;
      read = true;
      pending += count;
    }
    this.reset();
    if (read) this.set(pending);
  },
});

/**
 * A label whose values come from clients (GraphQL operation names): the first `cap` distinct
 * values are kept as they are, later ones (and any longer than `maxLength`) become `overflow`. The
 * set is never emptied, so a series once exported keeps its name.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(
    private readonly cap: number,
    private readonly maxLength = 64,
    private readonly overflow = 'other',
  ) {}

  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.cap || value.length > this.maxLength || value === this.overflow) return this.overflow;
    this.seen.add(value);
    return value;
  }
}

/** GraphQL operation names as labels: at most MAX_OPERATION_NAMES distinct, then `other`. */
export const operationNames = new BoundedLabel(MAX_OPERATION_NAMES);
