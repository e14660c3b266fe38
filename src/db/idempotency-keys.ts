import type { MikroORM } from '@mikro-orm/postgresql';

/*
 * Idempotency keys (issue 26 §1), kept in PostgreSQL (migration 20261205000001): the unique index
 * decides between API processes. The HTTP side (the header, the fingerprint, replaying an answer)
 * is src/http/idempotency.ts and the facade's pipeline; the sweep prunes expired keys.
 */

/** How long a first request holds its key before a retry may take it over (its process gone). */
const RUNNING_LEASE_SECONDS = 60;
/** Statuses not stored: the client's retry should be run, not answered from the store. */
const NOT_STORED = new Set([401, 409, 429]);

/** What the first request's answer was, as stored. */
export interface StoredAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

export type IdempotencyClaim =
  /** The first with this key: run it, then `finish` (or `abandon`). */
  | { readonly kind: 'new'; readonly id: string }
  /** Done before: answer this. */
  | { readonly kind: 'replay'; readonly answer: StoredAnswer }
  /** The key was used with another request. */
  | { readonly kind: 'mismatch' }
  /** The first request with this key is still running. */
  | { readonly kind: 'running' };

export class IdempotencyStore {
  constructor(
    private readonly orm: MikroORM,
    /** How long a key is kept (IDEMPOTENCY_KEY_TTL_HOURS). */
    private readonly ttlHours: number,
  ) {}

  private get conn() {
    return this.orm.em.getConnection();
  }

  /**
   * Takes the key for this request, or says what it holds: a key past its expiry, or a running
   * one past its lease (its process gone), is taken anew.
   */
  async begin(owner: string, scope: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const [taken] = await this.conn.execute<Array<{ id: string }>>(
      `insert into idempotency_keys (owner, scope, key, fingerprint, state, locked_until, expires_at)
       values (?, ?, ?, ?, 'running', now() + make_interval(secs => ?), now() + ? * interval '1 hour')
       on conflict (owner, scope, key) do update
         set fingerprint = excluded.fingerprint, state = 'running', status = null, content_type = null, body = null,
             created_at = now(), locked_until = excluded.locked_until, expires_at = excluded.expires_at
         where idempotency_keys.expires_at <= now()
            or (idempotency_keys.state = 'running' and idempotency_keys.locked_until <= now() and idempotency_keys.fingerprint = excluded.fingerprint)
       returning id::text as id`,
      [owner, scope, key, fingerprint, RUNNING_LEASE_SECONDS, this.ttlHours],
      'all',
    );
    if (taken) return { kind: 'new', id: taken.id };
    const [held] = await this.conn.execute<
      Array<{ fingerprint: string; state: string; status: number | null; content_type: string | null; body: Buffer | null }>
    >(`select fingerprint, state, status, content_type, body from idempotency_keys where owner = ? and scope = ? and key = ?`, [owner, scope, key], 'all');
    // Gone between the two statements (pruned, or its first request abandoned it): this one is first after all.
    if (!held) return this.begin(owner, scope, key, fingerprint);
    if (held.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (held.state === 'running') return { kind: 'running' };
    return {
      kind: 'replay',
      answer: { status: held.status!, contentType: held.content_type ?? 'application/json; charset=utf-8', body: held.body ?? Buffer.alloc(0) },
    };
  }

  /** The first request's answer: stored for its retries, unless it is one a retry should not get (a 5xx, 401, 409, 429). */
  async finish(id: string, answer: StoredAnswer): Promise<void> {
    if (answer.status >= 500 || NOT_STORED.has(answer.status)) return this.abandon(id);
    await this.conn.execute(`update idempotency_keys set state = 'done', status = ?, content_type = ?, body = ? where id = ?`, [
      answer.status,
      answer.contentType.slice(0, 200),
      answer.body,
      id,
    ]);
  }

  /** Lets the key go (the request failed in a way a retry should run again). */
  async abandon(id: string): Promise<void> {
    await this.conn.execute(`delete from idempotency_keys where id = ? and state = 'running'`, [id]);
  }

  /** Keys past their expiry, `batch` at a time (the sweep). */
  async prune(batch: number): Promise<number> {
    const [row] = await this.conn.execute<Array<{ removed: number }>>(
      `with gone as (delete from idempotency_keys where id in (select id from idempotency_keys where expires_at <= now() order by expires_at limit ?) returning 1)
       select count(*)::int as removed from gone`,
      [batch],
      'all',
    );
    return row?.removed ?? 0;
  }
}
