import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, isTransientConflict } from '../common/errors';
import { logger } from '../common/logger';
import type { Loaders } from './loaders';

/** Where a write came from, as the change records say it (record_changes.origin). */
export type WriteChannel = 'v3' | 'graphql' | 'job' | 'import';

/** What a transaction needs of a context (context.ts builds the full one on top of this module). */
export interface TransactionContext {
  readonly em: EntityManager;
  readonly loaders: Pick<Loaders, 'clear'>;
  readonly requestId: string;
  /** Who writes: the user, and the registered application whose app_key came with the request. */
  readonly viewer?: { readonly userId: number; readonly appId: number | null };
  /** Where the write came from; with the viewer, told to the change records at the transaction's start. */
  readonly channel?: WriteChannel;
}

/**
 * The change records (migration 20261203000001, triggers on every tracked table) read who wrote
 * and whence from the transaction's settings; a transaction without them is the system's.
 */
const WRITER_SQL = `select set_config('crm.actor_user', ?, true), set_config('crm.actor_app', ?, true), set_config('crm.origin', ?, true)`;

/** Work owed once a change is durable: enqueue a job, deliver a mail, call a webhook. */
export type AfterCommitTask = () => void | Promise<void>;

/** The open transaction of a context: at most one (nested mutations join it). */
const open = new WeakMap<TransactionContext, AfterCommitTask[]>();

export function inMutation(ctx: TransactionContext): boolean {
  return open.has(ctx);
}

/** Queues `task` for after the current mutation's commit; it is dropped if the mutation rolls back. */
export function registerAfterCommit(ctx: TransactionContext, task: AfterCommitTask): void {
  const tasks = open.get(ctx);
  // Outside a mutation there is no commit to wait for: running it now would hide a missing mutation().
  if (!tasks) throw new Error('afterCommit() called outside a mutation');
  tasks.push(task);
}

/** Within the current transaction, the rows written to `table` are recorded as changes of `model` (a note written as a conversation). */
export async function recordChangesAs(em: EntityManager, table: string, model: string): Promise<void> {
  await em.execute(`select set_config(?, ?, true)`, [`crm.model.${table}`, model]);
}

/** How many times a mutation runs at most when PostgreSQL gives it up for a concurrent one's sake. */
const CONFLICT_ATTEMPTS = 3;

/**
 * Every write runs through here: one transaction on the context's EntityManager (so the loaders'
 * reads and the outbox rows written with the change share it), committed when `work` returns.
 * On any error the transaction rolls back, the unit of work is cleared and the queued after-commit
 * tasks are dropped. A mutation called inside another joins the outer transaction. Loader caches
 * are cleared either way: what they hold may be stale. After-commit tasks run once, in order,
 * after the commit and before the result is returned; a failing task is logged and never turns
 * the committed mutation into an error.
 *
 * A transaction PostgreSQL aborts for another's sake (a deadlock between writes that lock the same
 * rows in different orders, e.g. a deal's people replaced while one of them is deleted) is run
 * again from the start, up to CONFLICT_ATTEMPTS times, after a short random pause: `work` reads
 * everything it writes inside the transaction, so a second run sees the winner's commit. Past
 * that, ConflictError: nothing was written and the client may send it again.
 */
export async function mutation<T>(ctx: TransactionContext, work: (em: EntityManager) => Promise<T>): Promise<T> {
  if (open.has(ctx)) return work(ctx.em);
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptMutation(ctx, work);
    } catch (error) {
      if (!isTransientConflict(error)) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) {
        logger.warn('mutation gave up after concurrent writes', { requestId: ctx.requestId, attempts: attempt, error: String(error) });
        throw new ConflictError();
      }
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

async function attemptMutation<T>(ctx: TransactionContext, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const tasks: AfterCommitTask[] = [];
  open.set(ctx, tasks);
  const em = ctx.em;
  let result: T;
  try {
    await em.begin();
    if (ctx.viewer && ctx.channel)
      await em.execute(WRITER_SQL, [String(ctx.viewer.userId), ctx.viewer.appId === null ? '' : String(ctx.viewer.appId), ctx.channel]);
    result = await work(em);
    await em.commit();
  } catch (error) {
    if (em.isInTransaction()) {
      await em.rollback().catch((rollbackError: unknown) => logger.error('rollback failed', { requestId: ctx.requestId, error: String(rollbackError) }));
    }
    // Entities persisted or changed by the failed work must not be flushed by a later write.
    em.clear();
    throw error;
  } finally {
    open.delete(ctx);
    ctx.loaders.clear();
  }
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      logger.error('after-commit task failed', { requestId: ctx.requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  }
  return result;
}

/** Savepoint names of the open mutations: one counter per context, so nested savepoints never share a name. */
const savepoints = new WeakMap<TransactionContext, number>();

/**
 * Runs `work` inside the current mutation as a unit of its own: a savepoint before it, released
 * when it succeeds; on any error the database goes back to the savepoint, the after-commit tasks
 * `work` queued are dropped, the unit of work is cleared (entities the failed work persisted or
 * changed are not flushed later) and the error is rethrown; the rest of the transaction stands.
 * The work's entities are flushed before the savepoint is released. Either way the unit of work is
 * cleared afterwards: what the next unit reads comes from the database, as it now stands.
 * `keep(result)` false: the work is undone as a failure would be, without an error (a write that
 * changed nothing, so that it leaves no trace), and its result is returned.
 */
export async function withinSavepoint<T>(
  ctx: TransactionContext,
  work: (em: EntityManager) => Promise<T>,
  keep: (result: T) => Promise<boolean> | boolean = () => true,
): Promise<T> {
  const tasks = open.get(ctx);
  if (!tasks) throw new Error('withinSavepoint() called outside a mutation');
  const em = ctx.em;
  const depth = (savepoints.get(ctx) ?? 0) + 1;
  savepoints.set(ctx, depth);
  const name = `unit_${depth}`;
  const queued = tasks.length;
  const undo = async () => {
    await em.execute(`rollback to savepoint ${name}`);
    tasks.length = queued;
  };
  try {
    await em.execute(`savepoint ${name}`);
    let result: T;
    try {
      result = await work(em);
      await em.flush();
    } catch (error) {
      await undo();
      throw error;
    }
    if (await keep(result)) await em.execute(`release savepoint ${name}`);
    else await undo();
    return result;
  } finally {
    em.clear();
    ctx.loaders.clear();
    savepoints.set(ctx, depth - 1);
  }
}
