import { createHmac, randomInt } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { logger } from '../../common/logger';
import { jobDuration, jobsFailed, jobsRunning, webhookDeliveries } from '../../common/metrics';
import type { JobQueue } from '../../context/job-queue';
import { FetchRefused } from '../documents/fetch/fetch-refused';
import { safePost, type SafeFetchOptions } from '../documents/fetch/safe-fetch';
import type { MailIntent, WebhookDisabled } from '../outbox/mail-intent';

/*
 * Sending one endpoint's deliveries, in order (Standard Webhooks): the oldest pending one first; a
 * delivery waiting for its retry holds the ones after it, so a receiver sees the changes of a
 * record in the order they were made. At least once: a delivery is claimed with a lease (its next
 * attempt moved past the lease), sent, then recorded; a worker killed in between leaves it to be
 * sent again under the same webhook-id, which receivers de-duplicate by.
 */

/** The waits after each failed attempt (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), each ±10%. After the last, the delivery fails. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** An attempt's whole time (connect, send, answer). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How long an endpoint may keep failing before it is disabled. */
export const FAILING_DAYS = 5;
/** Deliveries one run sends at most before handing over to a next run. */
const RUN_LIMIT = 100;
/** Deliveries claimed at once at most (a claim whose lease is half gone is given back early). */
const CLAIM_LIMIT = 50;
/** Retry-After is honoured up to a day. */
const MAX_RETRY_AFTER_MS = 86_400_000;

interface Claimed {
  readonly id: string;
  readonly body: string;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  readonly previous_secret: string | null;
  readonly previous_secret_until: Date | null;
}

/** The Standard Webhooks signature of `body` under a `whsec_` secret: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The wait before the attempt after `attempts` failed ones, or null when they are all spent; Retry-After (seconds or a date) wins. */
function nextWait(attempts: number, retryAfter: string | string[] | undefined, now: number): number | null {
  if (attempts > RETRY_SCHEDULE_MS.length) return null;
  const given = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  if (given !== undefined) {
    const seconds = /^\d{1,9}$/.test(given.trim()) ? Number(given.trim()) * 1000 : Date.parse(given) - now;
    if (Number.isFinite(seconds) && seconds > 0) return Math.min(seconds, MAX_RETRY_AFTER_MS);
  }
  const base = RETRY_SCHEDULE_MS[attempts - 1];
  return Math.round(base * (0.9 + randomInt(0, 2001) / 10_000));
}

export interface DeliveryDeps {
  readonly orm: MikroORM;
  readonly queue: JobQueue;
  /** Allowed hosts and the like (documentFetchOptions); the timeout is the delivery's own. */
  readonly fetch: SafeFetchOptions;
  /** How long a claimed delivery is left to its worker: the job lock's lifetime (a killed worker's delivery is sent again after it). */
  readonly leaseSeconds: number;
  readonly signal?: AbortSignal;
  /** The time: tests may pin it. */
  readonly now?: () => Date;
}

/**
 * Claims the endpoint's due deliveries at the head of its queue, oldest first: up to `limit`, none
 * after one that is not due (a retry's wait, another run's lease), so that order holds. Each is
 * leased for `leaseSeconds` and its attempt counted.
 */
async function claimHead(conn: Connection, endpointId: number, limit: number, leaseSeconds: number): Promise<Claimed[]> {
  const claimed = await conn.execute<Claimed[]>(
    `with head as (
       select d.id, d.next_attempt_at <= now() as due from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
        where d.endpoint_id = ? and d.status = 'pending' order by d.id limit ? for update of d
     ), runnable as (
       select h.id from head h where h.due and not exists (select 1 from head w where w.id < h.id and not w.due)
     )
     update webhook_deliveries d set next_attempt_at = now() + make_interval(secs => ?), attempts = d.attempts + 1
       from runnable, webhook_endpoints e
      where d.id = runnable.id and e.id = d.endpoint_id
      returning d.id::text as id, d.body, d.attempts, e.url, e.secret, e.previous_secret, e.previous_secret_until`,
    [endpointId, limit, leaseSeconds],
    'all',
  );
  // Sent in id order (RETURNING has none of its own); ids are bigint text: shorter is smaller.
  return claimed.sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Claimed deliveries not attempted after all (a failure before them, a shutdown): due again, their attempt uncounted. */
async function release(conn: Connection, rest: readonly Claimed[]): Promise<void> {
  if (rest.length === 0) return;
  // Only as claimed: one reset by a redelivery meanwhile is left as that made it.
  await conn.execute(
    `update webhook_deliveries set next_attempt_at = now(), attempts = attempts - 1
      where (id, attempts) in (${rest.map(() => '(?::bigint, ?::int)').join(', ')}) and status = 'pending'`,
    rest.flatMap((c) => [c.id, c.attempts]),
    'run',
  );
}

type Connection = ReturnType<MikroORM['em']['getConnection']>;

/** A successful attempt not recorded yet: its delivery's id and attempt, when, how long, what status and the head of the answer. */
type Success = readonly [id: string, attempts: number, at: Date, durationMs: number, status: number, head: string | null];

/**
 * Records successful attempts in one statement: their attempts logged, their deliveries delivered,
 * the endpoint's last run and its failures over. A delivery sent again meanwhile (a redelivery or
 * a replay reset its attempts while this one was in flight) stays pending for that.
 */
async function recordSuccesses(conn: Connection, endpointId: number, done: Success[]): Promise<void> {
  if (done.length === 0) return;
  await conn.execute(
    `with done (id, attempts, at, duration_ms, status_code, head) as (values ${done.map(() => '(?::bigint, ?::int, ?::timestamptz, ?::int, ?::int, ?::text)').join(', ')}),
     attempt as (
       insert into webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, response_head, error)
       select id, at, duration_ms, status_code, head, null from done
     ), delivery as (
       update webhook_deliveries d set status = 'delivered', delivered_at = done.at, last_status_code = done.status_code, last_error = null
         from done where d.id = done.id and d.attempts = done.attempts
     )
     update webhook_endpoints set last_run_at = (select max(at) from done), failing_since = null where id = ?`,
    [...done.flat(), endpointId],
    'run',
  );
  webhookDeliveries.inc({ outcome: 'delivered' }, done.length);
  done.length = 0;
}

/**
 * Sends `endpointId`'s due deliveries in order until one must wait (then its run is scheduled for
 * then) or none is left. Claimed up to CLAIM_LIMIT at a time and sent one after the other; the
 * successes are recorded together, when the claim is spent or before anything else is written (a
 * worker killed before that sends them again under the same webhook-ids). A claim whose lease is
 * half gone is given back and claimed anew. Every attempt is logged (webhook_attempts).
 */
export async function deliverWebhooks(deps: DeliveryDeps, endpointId: number): Promise<{ status: string; sent: number }> {
  const conn = deps.orm.em.getConnection();
  const now = deps.now ?? (() => new Date());
  const leaseMs = deps.leaseSeconds * 1000;
  let sent = 0;
  const done: Success[] = [];
  while (sent < RUN_LIMIT) {
    const claimedAt = Date.now();
    const batch = await claimHead(conn, endpointId, Math.min(CLAIM_LIMIT, RUN_LIMIT - sent), deps.leaseSeconds);
    if (batch.length === 0) return { status: sent > 0 ? 'sent' : 'waiting', sent };
    for (let i = 0; i < batch.length; i++) {
      if (deps.signal?.aborted || Date.now() - claimedAt > leaseMs / 2) {
        await recordSuccesses(conn, endpointId, done);
        await release(conn, batch.slice(i));
        if (deps.signal?.aborted) return { status: 'cut short', sent };
        break;
      }
      const outcome = await attempt(deps, conn, endpointId, batch[i], now(), done);
      if (outcome === 'sent' || outcome === 'failed') {
        if (outcome === 'sent') sent++;
        continue;
      }
      // In order: the deliveries after this one wait for its retry (or for the next run).
      await release(conn, batch.slice(outcome === 'cancelled' ? i : i + 1));
      await recordSuccesses(conn, endpointId, done);
      if (outcome === 'cancelled') return { status: 'cut short', sent };
      return { status: outcome, sent };
    }
    await recordSuccesses(conn, endpointId, done);
  }
  // More than one run sends: the caller runs the next at once.
  return { status: 'more', sent };
}

/**
 * An in-process run, counted in the job metrics and logged under the job it stands for
 * (`deliver-webhooks`). Its line is at debug, not info: a run is made for nearly every write, and
 * the job's own lines stay the ones an operator reads by default; a failure is an error line as a job's.
 */
export async function countedAsJob<T extends object>(run: () => Promise<T>, job: 'deliver-webhooks' | 'dispatch-webhooks' = 'deliver-webhooks'): Promise<T> {
  const started = performance.now();
  jobsRunning.inc({ job });
  try {
    const outcome = await run();
    const ms = performance.now() - started;
    jobDuration.observe({ job, outcome: 'ok' }, ms / 1000);
    logger.debug('job done', { job, inProcess: true, ms: Math.round(ms), ...outcome });
    return outcome;
  } catch (error) {
    const ms = performance.now() - started;
    jobsFailed.inc({ job });
    jobDuration.observe({ job, outcome: 'failed' }, ms / 1000);
    logger.error('job failed', { job, inProcess: true, ms: Math.round(ms), error: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    jobsRunning.dec({ job });
  }
}

export interface Deliverer {
  /** Deliveries were made for `endpointId`: its run starts now, or once more after the running one. */
  wake(endpointId: number): void;
  /** Lets running runs finish for `graceMs`, then cuts them short (their claims are given back or run out); wakes after this are ignored. */
  close(graceMs: number): Promise<void>;
}

/**
 * Runs endpoints' deliveries in this process as the dispatcher makes them (no job to save and pick
 * up per endpoint and pass): one run per endpoint at a time, a wake during it one more run after
 * it. Runs of other processes on the same endpoint are kept in order by the claims. Retries at
 * their time, the sweep and an administrator's redelivery still go through the job.
 */
export function createDeliverer(deps: Omit<DeliveryDeps, 'signal'>, onError: (error: unknown) => void): Deliverer {
  const abort = new AbortController();
  const endpoints = new Map<number, { again: boolean; run: Promise<void> }>();
  let closed = false;
  const start = (endpointId: number): void => {
    const state = { again: false, run: Promise.resolve() };
    endpoints.set(endpointId, state);
    state.run = (async () => {
      try {
        let outcome;
        do {
          state.again = false;
          outcome = await countedAsJob(() => deliverWebhooks({ ...deps, signal: abort.signal }, endpointId));
        } while ((state.again || outcome.status === 'more') && !closed);
      } catch (error) {
        onError(error);
      } finally {
        endpoints.delete(endpointId);
      }
    })();
  };
  return {
    wake(endpointId) {
      if (closed) return;
      const running = endpoints.get(endpointId);
      if (running) running.again = true;
      else start(endpointId);
    },
    async close(graceMs) {
      closed = true;
      const all = Promise.all([...endpoints.values()].map((e) => e.run));
      const timer = setTimeout(() => abort.abort(new Error('worker shutting down')), graceMs);
      await all;
      clearTimeout(timer);
    },
  };
}

/**
 * One attempt of one claimed delivery: sent (added to `done`, recorded by the caller); failed for
 * good (its attempts spent: the next one goes); waiting for its retry; the endpoint disabled; or
 * cancelled (the worker stopping: uncounted). A failure is recorded at once, after `done`.
 */
async function attempt(
  deps: DeliveryDeps,
  conn: Connection,
  endpointId: number,
  claimed: Claimed,
  at: Date,
  done: Success[],
): Promise<'sent' | 'failed' | 'waiting' | 'disabled' | 'cancelled'> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const messageId = `msg_${claimed.id}`;
  const signatures = [signature(claimed.secret, messageId, timestamp, claimed.body)];
  if (claimed.previous_secret && claimed.previous_secret_until && new Date(claimed.previous_secret_until) > at)
    signatures.push(signature(claimed.previous_secret, messageId, timestamp, claimed.body));
  const started = Date.now();
  let status: number | null = null;
  let head: string | null = null;
  let error: string | null = null;
  let retryAfter: string | string[] | undefined;
  try {
    const res = await safePost(
      claimed.url,
      claimed.body,
      { 'Content-Type': 'application/json', 'webhook-id': messageId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') },
      { ...deps.fetch, timeoutMs: DELIVERY_TIMEOUT_MS, signal: deps.signal, userAgent: 'crm-service webhooks', keepAlive: true },
    );
    status = res.status;
    head = res.head;
    retryAfter = res.headers['retry-after'];
  } catch (e) {
    // Not the endpoint's fault: the caller gives it back uncounted.
    if (e instanceof FetchRefused && e.code === 'cancelled') return 'cancelled';
    error = e instanceof FetchRefused ? e.message : 'the delivery could not be sent';
  }
  const duration = Date.now() - started;
  if (status !== null && status >= 200 && status <= 299) {
    done.push([claimed.id, claimed.attempts, at, duration, status, head === null ? null : head.slice(0, 1024)]);
    return 'sent';
  }
  await recordSuccesses(conn, endpointId, done);
  await conn.execute(
    `insert into webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, response_head, error) values (?, ?, ?, ?, ?, ?)`,
    [claimed.id, at, duration, status, head === null ? null : head.slice(0, 1024), error],
    'run',
  );
  const reason = error ?? `the endpoint answered ${status}`;
  if (status === 410) {
    // Gone: the receiver asks for nothing more.
    await conn.execute(
      `update webhook_deliveries set status = 'failed', last_status_code = 410, last_error = ? where id = ? and attempts = ?`,
      [reason, claimed.id, claimed.attempts],
      'run',
    );
    webhookDeliveries.inc({ outcome: 'failed' });
    await disableEndpoint(deps, endpointId, 'gone', { at, lastStatusCode: status, lastError: reason });
    return 'disabled';
  }
  const wait = nextWait(claimed.attempts, retryAfter, at.getTime());
  const [endpoint] = await conn.execute<Array<{ failing_since: Date }>>(
    `update webhook_endpoints set last_run_at = ?, failing_since = coalesce(failing_since, ?) where id = ? returning failing_since`,
    [at, at, endpointId],
    'all',
  );
  if (wait === null) {
    await conn.execute(
      `update webhook_deliveries set status = 'failed', last_status_code = ?, last_error = ? where id = ? and attempts = ?`,
      [status, reason, claimed.id, claimed.attempts],
      'run',
    );
    webhookDeliveries.inc({ outcome: 'failed' });
  } else {
    const due = new Date(at.getTime() + wait);
    await conn.execute(
      `update webhook_deliveries set next_attempt_at = ?, last_status_code = ?, last_error = ? where id = ? and attempts = ?`,
      [due, status, reason, claimed.id, claimed.attempts],
      'run',
    );
    // Its run at the retry's time (the sweep would find it too, but only at its own pace).
    webhookDeliveries.inc({ outcome: 'retried' });
    await deps.queue.enqueue('deliver-webhooks', { endpointId }, due);
  }
  if (endpoint && at.getTime() - new Date(endpoint.failing_since).getTime() > FAILING_DAYS * 86_400_000) {
    await disableEndpoint(deps, endpointId, 'failing', { at, lastStatusCode: status, lastError: reason });
    return 'disabled';
  }
  return wait === null ? 'failed' : 'waiting';
}

/** An endpoint's disabled_reason, by why it was disabled. */
const DISABLED_REASONS: Readonly<Record<WebhookDisabled['reason'], string>> = {
  gone: 'the URL answered 410 Gone',
  failing: `failing for ${FAILING_DAYS} days`,
};
/** The log's word for it, as before the mail existed. */
const LOGGED_REASONS: Readonly<Record<WebhookDisabled['reason'], string>> = { gone: '410', failing: 'failing' };

/**
 * Disables an endpoint and owes the mail saying so (issue 24 §3), in one transaction: the update
 * only takes an enabled endpoint, so two runs that both saw it fail (a job retried, a lease run
 * out) disable it once and mail once. The mail is an outbox row of its owner (`recipient_id`),
 * sent to its failure_email when set (`recipient_address`; else the owner's own address); an
 * endpoint without an owner (deleted) is disabled without a mail, as no user is left to own the
 * row. Its delivery is enqueued once committed; a lost enqueue waits for the sweep, which finds
 * the row due. True when this call disabled it.
 */
export async function disableEndpoint(
  deps: Pick<DeliveryDeps, 'orm' | 'queue'>,
  endpointId: number,
  reason: WebhookDisabled['reason'],
  detail: { readonly at: Date; readonly lastStatusCode: number | null; readonly lastError: string | null },
): Promise<boolean> {
  const outcome = await deps.orm.em.fork().transactional(async (tx) => {
    const [endpoint] = await tx.execute<
      Array<{ account_id: number; owner_id: number | null; failure_email: string | null; failing_since: Date | string | null }>
    >(
      `update webhook_endpoints set enabled = false, disabled_reason = ?, last_run_at = ? where id = ? and enabled
        returning account_id, owner_id, failure_email, failing_since`,
      [DISABLED_REASONS[reason], detail.at, endpointId],
      'all',
    );
    if (!endpoint) return null;
    if (endpoint.owner_id === null) return { mail: null };
    const intent: Extract<MailIntent, { kind: 'webhook_disabled' }> = {
      kind: 'webhook_disabled',
      subject: { type: 'WebhookEndpoint', id: endpointId },
      payload: {
        reason,
        failingSince: reason === 'failing' && endpoint.failing_since !== null ? new Date(endpoint.failing_since).toISOString() : null,
        lastStatusCode: detail.lastStatusCode,
        lastError: detail.lastError,
      },
    };
    // created_at has no default (the entity sets it): the instant of the attempt that disabled it.
    const [mail] = await tx.execute<Array<{ id: number }>>(
      `insert into outbox_messages (account_id, recipient_id, recipient_address, kind, subject_type, subject_id, payload, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      [
        endpoint.account_id,
        endpoint.owner_id,
        endpoint.failure_email?.trim() || null,
        intent.kind,
        intent.subject.type,
        intent.subject.id,
        JSON.stringify(intent.payload),
        detail.at,
      ],
      'all',
    );
    return { mail: mail!.id };
  });
  if (!outcome) return false;
  logger.info('webhook endpoint disabled', { endpointId, reason: LOGGED_REASONS[reason], outboxMessageId: outcome.mail });
  if (outcome.mail !== null) {
    try {
      await deps.queue.enqueue('deliver-mail', { outboxMessageId: outcome.mail });
    } catch (error) {
      logger.error('enqueueing a mail failed: the sweep will deliver it', {
        outboxMessageId: outcome.mail,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return true;
}

/** Endpoints whose oldest pending delivery is due: the sweep gives them a run (a retry's time came, a killed worker's lease ran out). */
export async function dueWebhookEndpointIds(orm: MikroORM, limit: number): Promise<number[]> {
  const rows = await orm.em.getConnection().execute<Array<{ endpoint_id: number }>>(
    `select e.id as endpoint_id from webhook_endpoints e
      where e.enabled and exists (
        select 1 from (select d.next_attempt_at from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending' order by d.id limit 1) h
         where h.next_attempt_at <= now())
      order by e.id limit ?`,
    [limit],
    'all',
  );
  return rows.map((r) => r.endpoint_id);
}

/** Deliveries still to be sent or retried, of every endpoint (the metrics' gauge, read at scrape: the pending rows' partial index). */
export async function pendingDeliveryCount(orm: MikroORM): Promise<number> {
  const [row] = await orm.em
    .getConnection()
    .execute<Array<{ pending: number }>>(`select count(*)::int as pending from webhook_deliveries where status = 'pending'`, [], 'all');
  return row?.pending ?? 0;
}

/** Deliveries older than `days` that are no longer pending go, `batch` at a time, with their attempts (the sweep calls it). */
export async function pruneDeliveries(orm: MikroORM, days: number, batch: number): Promise<number> {
  const [done] = await orm.em.getConnection().execute<Array<{ removed: number }>>(
    `with gone as (
       delete from webhook_deliveries where id in (
         select id from webhook_deliveries where status <> 'pending' and created_at < now() - make_interval(days => ?) order by id limit ?)
       returning id)
     select count(*)::int as removed from gone`,
    [days, batch],
    'all',
  );
  return done.removed;
}
