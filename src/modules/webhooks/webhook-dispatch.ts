import type { MikroORM } from '@mikro-orm/postgresql';
import { createContext, type RequestContext } from '../../context/context';
import type { JobQueue } from '../../context/job-queue';
import { changeRows, decodeCursor, encodeCursor, visibleTo } from '../changes/change-feed';
import { ChangeAction, typeNameOf, type ChangeRow } from '../changes/change.types';
import { viewerFor } from '../users/user.viewer';

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
}

/** Changes one run reads at most; a larger backlog takes several runs (the run enqueues the next). */
export const DISPATCH_BATCH = 500;

interface EndpointRow {
  readonly id: number;
  readonly account_id: number;
  readonly owner_id: number | null;
  readonly models: string[];
  readonly actions: string[];
  readonly only_when_changed: string[];
  readonly created_at: Date;
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

/**
 * One run: the changes after the cursor, each endpoint's deliveries of those its owner may see
 * (the change feed's rule, as the owner), the cursor moved past them, in one transaction; then
 * each endpoint with new deliveries gets its delivery job, and a backlog another run.
 */
export async function dispatchChanges(deps: DispatchDeps, batch = DISPATCH_BATCH): Promise<{ changes: number; deliveries: number }> {
  const { orm, queue } = deps;
  const em = orm.em.fork();
  const outcome = await em.transactional(async (tx) => {
    const [state] = await tx.execute<Array<{ cursor: string | null }>>(`select "cursor" from "webhook_dispatch" for update`, [], 'all');
    const cursor = decodeCursor(state?.cursor ?? null, 'cursor');
    const read = await changeRows(
      tx as never,
      cursor,
      batch,
      ['exists (select 1 from "webhook_endpoints" e where e.account_id = rc.account_id and e.enabled)'],
      [],
    );
    const rows = read.rows.map((r) => r.row);
    const accounts = [...new Set(rows.map((r) => r.account_id))];
    const endpoints =
      accounts.length === 0
        ? []
        : await tx.execute<EndpointRow[]>(
            `select "id", "account_id", "owner_id", "models", "actions", "only_when_changed", "created_at" from "webhook_endpoints" where "enabled" and "owner_id" is not null and "account_id" in (?)`,
            [accounts],
            'all',
          );
    const touched = new Set<number>();
    // Records read once per owner and run: endpoints of one owner carry the same view.
    const reading = new Map<string, Promise<unknown>>();
    let deliveries = 0;
    for (const endpoint of endpoints) {
      const wanted = rows.filter((row) => wants(endpoint, row));
      if (wanted.length === 0) continue;
      const viewer = await viewerFor(tx, { userId: endpoint.owner_id! });
      if (!viewer || viewer.accountId !== endpoint.account_id) continue;
      // The owner's view, read outside this transaction (what is committed is what they may see).
      const ctx = createContext(orm, viewer, `webhooks:${endpoint.id}`, { channel: 'job', origin: deps.origin });
      const shown = await visibleTo(ctx, wanted);
      if (shown.length === 0) continue;
      const records: unknown[] = [];
      for (const row of shown) records.push(await recordOf(deps, reading, ctx, row));
      const now = new Date();
      const values = shown.map(() => '(?, ?, ?, ?, ?)').join(', ');
      const params = shown.flatMap((row, i) => [endpoint.account_id, endpoint.id, row.id, eventTypeOf(row), deliveryBody(row, now, records[i])]);
      const made = await tx.execute<Array<{ id: string }>>(
        `insert into "webhook_deliveries" ("account_id", "endpoint_id", "change_id", "event_type", "body") values ${values} on conflict ("endpoint_id", "change_id") do nothing returning "id"`,
        params,
        'all',
      );
      if (made.length > 0) touched.add(endpoint.id);
      deliveries += made.length;
    }
    await tx.execute(`update "webhook_dispatch" set "cursor" = ?`, [encodeCursor(read.next)], 'run');
    return { changes: rows.length, deliveries, touched: [...touched], more: read.more };
  });
  for (const endpointId of outcome.touched) await queue.enqueue('deliver-webhooks', { endpointId });
  if (outcome.more) await queue.enqueue('dispatch-webhooks', {});
  return { changes: outcome.changes, deliveries: outcome.deliveries };
}

/** The record a delivery of `row` carries for `ctx`'s viewer: read once per owner, record and run; none for a destroy (its tombstone is in the row). */
function recordOf(deps: DispatchDeps, read: Map<string, Promise<unknown>>, ctx: RequestContext, row: ChangeRow): Promise<unknown> {
  if (row.action === ChangeAction.DESTROY || !deps.records) return Promise.resolve(null);
  const key = `${ctx.viewer.userId}:${row.model}:${row.record_id}`;
  let record = read.get(key);
  if (!record) read.set(key, (record = deps.records(typeNameOf(row.model), row.record_id, ctx)));
  return record;
}
