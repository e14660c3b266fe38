import { Agenda } from 'agenda';
import type { MikroORM } from '@mikro-orm/postgresql';
import { logger } from '../common/logger';
import type { Config } from '../config/config';
import type { DocumentStorage } from '../modules/documents/storage';
import { DEFAULT_DELIVERY_POLICY, mailTransportFromConfig } from '../modules/outbox';
import { documentFetchOptions } from '../modules/documents/document.fetch-job';
import { createDeliverer, createDispatcher, type Deliverer, type Dispatcher } from '../modules/webhooks';
import { AgendaQueue } from './agenda-queue';
import { connectJobBackend, jobStoreOf } from './backend';
import { JOB_HANDLERS } from './handlers';
import type { JobDeps } from './job-run';
import type { JobQueue } from '../context/job-queue';
import { startWorker, type RunningWorker } from './worker';
import { listenForChanges } from './change-listener';
import { lazyRecordReader } from './record-reader';

export type { JobQueue } from '../context/job-queue';
export { NO_QUEUE } from '../context/job-queue';
export type { JobName, JobPayloads } from '../context/job-names';

export interface Jobs {
  readonly queue: JobQueue;
  /** Null in an API-only process (`RUN_WORKER=false`). */
  readonly worker: RunningWorker | null;
  /** Stops the worker (running jobs get `graceMs`), then disconnects from the queue's store. */
  close(graceMs: number): Promise<void>;
}

/**
 * The jobs of one process: always a queue to enqueue on; a worker too unless `RUN_WORKER=false`.
 * Several processes (API processes, `npm run worker`) may share one store: a job is locked by the
 * one worker that runs it, and the sweep is a single recurring job among them.
 */
export async function startJobs(config: Config, databaseUrl: string, orm: MikroORM, role: string, storage: DocumentStorage): Promise<Jobs> {
  const name = `${role}:${process.pid}`;
  const store = jobStoreOf(config, databaseUrl);
  const backend = await connectJobBackend(store, name);
  const agenda = new Agenda({
    backend,
    name,
    processEvery: config.jobs.pollIntervalMs,
    defaultLockLifetime: config.jobs.lockLifetimeMs,
    maxConcurrency: Math.max(config.jobs.concurrency * 2, 4),
  });
  agenda.on('error', (error: Error) => logger.error('job queue error', { error: error.message }));
  const queue = new AgendaQueue(agenda);
  // Only a worker sends mail: an API-only process opens no SMTP transport.
  const transport = config.runWorker ? mailTransportFromConfig(config) : null;
  let worker: RunningWorker | null = null;
  let listener: { close(): Promise<void> } | null = null;
  let dispatcher: Dispatcher | null = null;
  let deliverer: Deliverer | null = null;
  try {
    await agenda.ready;
    if (config.runWorker) {
      // A claimed row's lease is the job's lock: a killed worker's row and job come free together.
      const leaseSeconds = Math.ceil(config.jobs.lockLifetimeMs / 1000);
      const failed = (what: string) => (error: unknown) =>
        logger.warn(`${what} failed (the sweep runs it again)`, { error: error instanceof Error ? error.message : String(error) });
      // Webhooks in this process as changes come: dispatch, then each endpoint's deliveries.
      deliverer = createDeliverer({ orm, queue, fetch: documentFetchOptions(config), leaseSeconds }, failed('a webhook delivery run'));
      dispatcher = createDispatcher(
        { orm, queue, records: lazyRecordReader({ checked: config.graphqlStrictLeaves }), origin: config.publicUrl, deliver: deliverer.wake },
        failed('a webhook dispatch'),
      );
      const deps: JobDeps = {
        orm,
        config,
        transport,
        deliveryPolicy: { ...DEFAULT_DELIVERY_POLICY, leaseSeconds },
        leaseSeconds,
        storage,
        queue,
        dispatcher,
      };
      worker = await startWorker(agenda, deps, JOB_HANDLERS, config.jobs);
      listener = await listenForChanges(databaseUrl, dispatcher.wake);
    } else {
      // Without a worker nothing connects the notification channel, and Agenda only publishes the
      // NOTIFY that wakes workers elsewhere when it is connected.
      await backend.notificationChannel?.connect();
    }
  } catch (error) {
    await listener?.close();
    await dispatcher?.close();
    await deliverer?.close(0);
    transport?.close();
    await backend.disconnect().catch(() => undefined);
    throw error;
  }
  logger.info('jobs ready', { store: store.kind, worker: worker !== null, smtp: transport !== null });

  let closing: Promise<void> | null = null;
  return {
    queue,
    worker,
    close(graceMs) {
      closing ??= (async () => {
        await listener?.close();
        await dispatcher?.close();
        // Both within the one grace period.
        await Promise.all([deliverer?.close(graceMs), worker?.stop(graceMs)]);
        if (!worker) await backend.notificationChannel?.disconnect();
        transport?.close();
        await backend.disconnect();
      })();
      return closing;
    },
  };
}
