import type { MikroORM } from '@mikro-orm/postgresql';
import { createContext, type RequestContext } from '../../context/context';
import type { JobQueue } from '../../context/job-queue';
import { changeRows, decodeCursor, encodeCursor, visibleTo } from '../changes/change-feed';
import { ChangeAction, typeNameOf, type ChangeRow } from '../changes/change.types';
import { mayReadType } from '../../graphql/scopes';
import { viewerFor } from '../users/user.viewer';
import { countedAsJob } from './webhook-delivery';

/*
 * The dispatcher: reads the change records after its cursor (the change feed's, over every
 * account with an enabled endpoint) and makes one delivery per endpoint and change it wants, its
 * body fixed then, so that every retry sends the same bytes under the same webhook-id. Woken by
 * the NOTIFY the change records send at commit, and by the sweep.
 */

/**
 * A record as its v3 show route answers `ctx`'s viewer (the facade's reader, rest-facade
 * createV3RecordReader), by GraphQL type; null when missing or hidden.
 */
export type RecordReader = (typeName: string, id: number, ctx: RequestContext) => Promise<unknown>;

export interface DispatchDeps {
  readonly orm: MikroORM;
  readonly queue: JobQueue;
  /** Reads the records a delivery carries; without one, deliveries carry no record but a tombstone. */
  readonly records?: RecordReader;
  /** The origin of links in the records (a document's public link): the service's public URL. */
  readonly origin?: string;
  /** Changes one pass reads at most (DISPATCH_BATCH). */
  readonly batch?: number;
  /** Starts an endpoint's deliveries in this process (createDeliverer); without it, each gets a delivery job. */
  readonly deliver?: (endpointId: number) => void;
}

/** Changes one pass reads at most; a larger backlog takes several passes (the dispatcher makes them). */
export const DISPATCH_BATCH = 500;

/** Records read at once for one endpoint: their loaders batch them, and the pool keeps connections for the API. */
const READ_CONCURRENCY = 50;

interface EndpointRow {
  readonly id: number;
  readonly account_id: number;
  readonly owner_id: number | null;
  readonly models: string[];
  readonly actions: string[];
  readonly only_when_changed: string[];
  readonly created_at: Date;
  /** The scopes of the scoped key that made it; null: a full key's. */
  readonly scopes: string[] | null;
}

/** `deal.created`, `deal.updated`, `deal.destroyed`: a delivery's `type`. */
export const eventTypeOf = (row: ChangeRow): string =>
  `${row.model}.${row.action === ChangeAction.CREATE ? 'created' : row.action === ChangeAction.UPDATE ? 'updated' : 'destroyed'}`;

/**
 * A delivery's body, as sent (Standard Webhooks: `type`, `timestamp`, `data`). `data.record` is the
 * record as the endpoint's owner reads it over v3 when the delivery is made (null when it is gone
 * by then: its destroy follows), and a destroy's tombstone.
 */
export function deliveryBody(row: ChangeRow, at: Date, record: unknown): string {
  return JSON.stringify({
    type: eventTypeOf(row),
    timestamp: at.toISOString(),
    data: {
      id: Number(row.id),
      model: row.model,
      action: row.action,
      record_id: row.record_id,
      occurred_at: new Date(row.occurred_at).toISOString(),
      actor: { type: row.actor_kind, user_id: row.actor_user_id, app_id: row.actor_app_id },
      origin: row.origin,
      changes: Object.fromEntries(Object.entries(row.changes ?? {}).map(([field, [previous, value]]) => [field, { previous, value }])),
      record: row.action === ChangeAction.DESTROY ? row.record : record,
    },
  });
}

/** Whether an endpoint wants a change: its model and action, after it was made, and for an update one of its fields. */
function wants(endpoint: EndpointRow, row: ChangeRow): boolean {
  if (row.account_id !== endpoint.account_id || !endpoint.models.includes(row.model) || !endpoint.actions.includes(row.action)) return false;
  if (new Date(row.occurred_at) < new Date(endpoint.created_at)) return false;
  if (row.action !== ChangeAction.UPDATE || endpoint.only_when_changed.length === 0) return true;
  return Object.keys(row.changes ?? {}).some((field) => endpoint.only_when_changed.includes(field));
}

/** What one pass did; `more`: a backlog (or a pass of another process moved the cursor first) wants another pass at once. */
export interface DispatchOutcome {
  readonly changes: number;
  readonly deliveries: number;
  readonly more: boolean;
}

/**
 * One pass: the changes after the cursor, each endpoint's deliveries of those its owner may see
 * (the change feed's rule, as the owner), then in one short transaction the deliveries made and
 * the cursor moved past them, if no other pass moved it meanwhile (compare and set: the slow part,
 * reading the records, holds no lock); then each endpoint with new deliveries gets its run (in
 * this process with `deps.deliver`, else a delivery job). A backlog or a lost race is `more`: the dispatcher (createDispatcher) passes again.
 */
export async function dispatchChanges(deps: DispatchDeps, batch = deps.batch ?? DISPATCH_BATCH): Promise<DispatchOutcome> {
  const { orm, queue } = deps;
  const em = orm.em.fork();
  const [state] = await em.execute<Array<{ cursor: string | null }>>(`select "cursor" from "webhook_dispatch"`, [], 'all');
  const seen = state?.cursor ?? null;
  const read = await changeRows(
    em as never,
    decodeCursor(seen, 'cursor'),
    batch,
    ['exists (select 1 from "webhook_endpoints" e where e.account_id = rc.account_id and e.enabled)'],
    [],
  );
  const rows = read.rows.map((r) => r.row);
  const accounts = [...new Set(rows.map((r) => r.account_id))];
  const endpoints =
    accounts.length === 0
      ? []
      : await em.execute<EndpointRow[]>(
          `select "id", "account_id", "owner_id", "models", "actions", "only_when_changed", "created_at", "scopes" from "webhook_endpoints" where "enabled" and "owner_id" is not null and "account_id" in (?)`,
          [accounts],
          'all',
        );
  // Records read once per owner and pass: endpoints of one owner carry the same view.
  const reading = new Map<string, Promise<unknown>>();
  const made = await Promise.all(endpoints.map((endpoint) => deliveriesOf(deps, reading, endpoint, rows)));
  const values = made.flat();
  const outcome = await em.transactional(async (tx) => {
    const [now] = await tx.execute<Array<{ cursor: string | null }>>(`select "cursor" from "webhook_dispatch" for update`, [], 'all');
    if ((now?.cursor ?? null) !== seen) return null;
    const inserted =
      values.length === 0
        ? []
        : await tx.execute<Array<{ endpoint_id: number }>>(
            `insert into "webhook_deliveries" ("account_id", "endpoint_id", "change_id", "event_type", "body") values ${values.map(() => '(?, ?, ?, ?, ?)').join(', ')} on conflict ("endpoint_id", "change_id") do nothing returning "endpoint_id"`,
            values.flat(),
            'all',
          );
    await tx.execute(`update "webhook_dispatch" set "cursor" = ?`, [encodeCursor(read.next)], 'run');
    return inserted;
  });
  // Another pass moved the cursor first: its deliveries stand, this pass's work is read again.
  if (outcome === null) return { changes: 0, deliveries: 0, more: true };
  for (const endpointId of new Set(outcome.map((r) => r.endpoint_id))) {
    if (deps.deliver) deps.deliver(endpointId);
    else await queue.enqueue('deliver-webhooks', { endpointId });
  }
  return { changes: rows.length, deliveries: outcome.length, more: read.more };
}

/** The rows `endpoint` gets of `rows` (account, endpoint, change, type, body), its owner's view read concurrently (their loaders batch the reads). */
async function deliveriesOf(
  deps: DispatchDeps,
  reading: Map<string, Promise<unknown>>,
  endpoint: EndpointRow,
  rows: readonly ChangeRow[],
): Promise<unknown[][]> {
  const wanted = rows.filter((row) => wants(endpoint, row));
  if (wanted.length === 0) return [];
  const viewer = await viewerFor(deps.orm.em.fork(), { userId: endpoint.owner_id! });
  if (!viewer || viewer.accountId !== endpoint.account_id) return [];
  // The owner's view of what is committed now, through the scopes of the key that made the endpoint.
  const ctx = createContext(deps.orm, { ...viewer, scopes: endpoint.scopes }, `webhooks:${endpoint.id}`, { channel: 'job', origin: deps.origin });
  const shown = await visibleTo(
    ctx,
    wanted.filter((row) => mayReadType(endpoint.scopes, typeNameOf(row.model))),
  );
  const records: unknown[] = [];
  for (let i = 0; i < shown.length; i += READ_CONCURRENCY)
    records.push(...(await Promise.all(shown.slice(i, i + READ_CONCURRENCY).map((row) => recordOf(deps, reading, ctx, row)))));
  const now = new Date();
  return shown.map((row, i) => [endpoint.account_id, endpoint.id, row.id, eventTypeOf(row), deliveryBody(row, now, records[i])]);
}

export interface Dispatcher {
  /** Asks for a pass (a notification came): one starts now, or after the running one. */
  wake(): void;
  /** Passes until none is owed (the job's and the sweep's way in): the running ones, with one more after them. */
  run(): Promise<DispatchOutcome>;
  /** Lets the running pass end; wakes after this are ignored. */
  close(): Promise<void>;
}

/**
 * Dispatch in one process, one pass at a time: a wake while a pass runs makes one more pass after
 * it (however many came), and a backlog passes until it is read. Passes of several processes are
 * kept apart by the cursor's compare and set.
 */
export function createDispatcher(deps: DispatchDeps, onError: (error: unknown) => void): Dispatcher {
  let running: Promise<DispatchOutcome> | null = null;
  let again = false;
  let closed = false;
  const loop = async (): Promise<DispatchOutcome> => {
    let total = { changes: 0, deliveries: 0, more: false };
    do {
      again = false;
      const pass = await countedAsJob(() => dispatchChanges(deps), 'dispatch-webhooks');
      total = { changes: total.changes + pass.changes, deliveries: total.deliveries + pass.deliveries, more: false };
      if (pass.more) again = true;
    } while (again && !closed);
    return total;
  };
  const start = (): Promise<DispatchOutcome> => {
    if (running) {
      again = true;
      return running;
    }
    const pass = loop();
    running = pass;
    const after = (failed: boolean) => {
      running = null;
      // A wake that came after the loop's last look (not after a failure: the sweep retries that, later).
      if (again && !closed && !failed) start().catch(onError);
    };
    pass.then(
      () => after(false),
      () => after(true),
    );
    return pass;
  };
  return {
    wake() {
      if (!closed) start().catch(onError);
    },
    run: start,
    async close() {
      closed = true;
      await running?.catch(() => undefined);
    },
  };
}

/** The record a delivery of `row` carries for `ctx`'s viewer: read once per owner, record and pass; none for a destroy (its tombstone is in the row). */
function recordOf(deps: DispatchDeps, read: Map<string, Promise<unknown>>, ctx: RequestContext, row: ChangeRow): Promise<unknown> {
  if (row.action === ChangeAction.DESTROY || !deps.records) return Promise.resolve(null);
  const key = `${ctx.viewer.userId}:${row.model}:${row.record_id}`;
  let record = read.get(key);
  if (!record) read.set(key, (record = deps.records(typeNameOf(row.model), row.record_id, ctx)));
  return record;
}
