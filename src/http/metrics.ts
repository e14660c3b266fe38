import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config';
import { addScrapeSources, knownJobs, registry, startDefaultMetrics } from '../common/metrics';
import { JOB_NAMES } from '../context/job-names';
import { queuedJobCounts } from '../jobs/queue-depth';
import { pendingDeliveryCount } from '../modules/webhooks';
import { METRICS_ROUTE } from './request-log';

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * `GET /metrics`, Prometheus text (docs/operations.md). Who may read it:
 * - `METRICS_TOKEN` set: only a request with `Authorization: Bearer <token>`, in every
 *   environment; else 401 with `WWW-Authenticate: Bearer` (RFC 6750). The token is compared as
 *   SHA-256 digests in constant time (equal lengths, so its length does not leak either).
 * - unset, development: anyone (like the explorer, a development convenience);
 * - unset, production: 404, as for any path the service does not serve: nothing is exposed until
 *   an operator chooses a token.
 */
export function metricsHandler(config: Pick<Config, 'development' | 'metricsToken'>): RequestHandler {
  startDefaultMetrics();
  const expected = config.metricsToken === undefined ? null : digest(config.metricsToken);
  return async (req, res, next) => {
    res.locals.route = METRICS_ROUTE;
    if (expected === null && !config.development) {
      res.status(404).json({ error: `No route matches ${req.method} ${req.path}` });
      return;
    }
    if (expected !== null) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        const challenge = given === undefined ? 'Bearer realm="metrics"' : 'Bearer realm="metrics", error="invalid_token"';
        res.setHeader('WWW-Authenticate', challenge);
        res.status(401).json({ error: given === undefined ? 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>' : 'Unknown metrics token' });
        return;
      }
    }
    try {
      const text = await registry.metrics();
      res.setHeader('Content-Type', registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.end(text);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * What this server lets a scrape read, until it closes (the returned function): its database pool
 * (MikroORM's knex pool, tarn), the job table's waiting jobs (PostgreSQL store only) and the
 * pending webhook deliveries. Each process reports the shared tables' counts: aggregate them
 * across processes with max, not sum.
 */
export function observeServer(orm: MikroORM, config: Pick<Config, 'mongoUrl'>): () => void {
  // Every job's series exist (at 0) before its first run, in an API-only process too.
  knownJobs(JOB_NAMES);
  return addScrapeSources({
    pool() {
      try {
        const pool = orm.em.getConnection().getKnex().client.pool as
          { numUsed(): number; numFree(): number; numPendingAcquires(): number; max: number } | undefined;
        return pool ? { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: pool.max } : null;
      } catch {
        return null; // closing
      }
    },
    queuedJobs: config.mongoUrl ? undefined : () => queuedJobCounts(orm),
    pendingWebhookDeliveries: () => pendingDeliveryCount(orm),
  });
}
