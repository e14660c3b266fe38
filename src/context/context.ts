import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { JobName, JobPayloads } from './job-names';
import { NO_QUEUE, type JobQueue } from './job-queue';
import { systemClock, type Clock } from '../common/clock';
import { Loaders } from './loaders';
import { registerAfterCommit, type AfterCommitTask, type WriteChannel } from './transaction';
import type { Viewer } from './viewer';

export type { Viewer } from './viewer';
export type { AfterCommitTask } from './transaction';

export interface RateState {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds at which the bucket is full again. */
  readonly reset: number;
  readonly retryAfter?: number;
  /** What the charged operation cost and what was taken (0 when refused); /graphql reports it. */
  readonly cost?: { readonly requested: number; readonly charged: number };
}

/** One unit of work per request or job: a forked EntityManager, fresh loaders, the viewer. */
export interface RequestContext {
  readonly em: EntityManager;
  readonly viewer: Viewer;
  readonly loaders: Loaders;
  readonly requestId: string;
  /** Where its writes come from (the change records' origin): `v3` or `graphql` for a request, `job` or `import` for a worker's. */
  readonly channel: WriteChannel;
  /**
   * Queues work for after the current mutation commits (see `mutation` in transaction.ts): run once
   * after a successful commit, dropped on rollback. Throws outside a mutation.
   */
  afterCommit(task: AfterCommitTask): void;
  /** Where jobs go (a worker runs them); use `enqueueAfterCommit`, never directly inside a mutation. */
  readonly jobs: JobQueue;
  /** The time of this request's rules ("today", "late", a series' horizon): a test may pin it. */
  readonly clock: Clock;
  /** Absolute origin of this service as its clients reach it (`PUBLIC_URL`, else the request's), no trailing slash. */
  readonly origin: string;
  /** Filled by the rate limiter when the operation is charged. */
  rate: RateState | null;
  /** Set once the operation has been charged (its whole cost at once), so no root field charges again. */
  rateCharge: Promise<void> | null;
}

/**
 * A fresh unit of work for one request or job: never the global EntityManager. Needs no HTTP, so
 * a job builds the same context as a request does (see viewerForUser in the users module).
 */
export interface ContextOptions {
  /** `graphql` unless told. */
  readonly channel?: WriteChannel;
  readonly jobs?: JobQueue;
  readonly clock?: Clock;
  readonly origin?: string;
}

export function createContext(orm: MikroORM, viewer: Viewer, requestId: string, options: ContextOptions = {}): RequestContext {
  const em = orm.em.fork();
  const ctx: RequestContext = {
    em,
    viewer,
    loaders: new Loaders(em, viewer),
    requestId,
    channel: options.channel ?? 'graphql',
    // `this`, not the object made here: Apollo hands resolvers a shallow copy of the context, and
    // mutation() opens its transaction on the copy it is given.
    afterCommit(task) {
      registerAfterCommit(this, task);
    },
    jobs: options.jobs ?? NO_QUEUE,
    clock: options.clock ?? systemClock,
    origin: options.origin ?? 'http://localhost',
    rate: null,
    rateCharge: null,
  };
  return ctx;
}

/**
 * Enqueues a job once the current mutation commits (dropped on rollback), so a worker never sees
 * a row that is not there yet. If the enqueue itself fails the row's state stays due, and the
 * worker's sweep enqueues it later: nothing is lost, it is only late.
 */
export function enqueueAfterCommit<N extends JobName>(ctx: RequestContext, name: N, data: () => JobPayloads[N]): void {
  ctx.afterCommit(() => ctx.jobs.enqueue(name, data()));
}
