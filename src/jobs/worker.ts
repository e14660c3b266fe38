import { type Agenda, backoffStrategies, type Job } from 'agenda';
import { logger } from '../common/logger';
import { jobDuration, jobsFailed, jobsRunning } from '../common/metrics';
import { JOB_NAMES, type JobName, type JobPayloads } from '../context/job-names';
import type { JobDeps, JobHandlers } from './job-run';
import { RUNNING_KEY } from './agenda-queue';

export interface WorkerOptions {
  readonly concurrency: number;
  readonly lockLifetimeMs: number;
  readonly sweepIntervalMs: number;
}

export interface RunningWorker {
  /**
   * Stops taking jobs, lets running ones finish for `graceMs`, then aborts what is left (its rows
   * stay claimed until their lease ends, then the sweep hands them to a worker again).
   */
  stop(graceMs: number): Promise<void>;
}

/**
 * Runs the jobs on `agenda` (already connected, see backend.ts): one definition per job name, the
 * recurring sweep, and the bookkeeping that lets shutdown abort what outlives the grace period.
 * Jobs are removed once they succeed; one that throws (the database unreachable) is retried with
 * exponential backoff (1 s, 2 s, 4 s … 5 retries), and its rows are found by the sweep after that.
 */
export async function startWorker(agenda: Agenda, deps: JobDeps, handlers: JobHandlers, options: WorkerOptions): Promise<RunningWorker> {
  const running = new Set<AbortController>();
  const define = <N extends JobName>(name: N) => {
    agenda.define(
      name,
      async (job: Job<JobPayloads[N]>) => {
        const controller = new AbortController();
        running.add(controller);
        const jobId = String(job.attrs._id);
        const started = Date.now();
        const timing = performance.now();
        jobsRunning.inc({ job: name });
        try {
          await releaseKey(job);
          const outcome = await handlers[name](deps, job.attrs.data, { jobId, signal: controller.signal });
          jobDuration.observe({ job: name, outcome: 'ok' }, (performance.now() - timing) / 1000);
          logger.info('job done', { job: name, jobId, ms: Date.now() - started, ...outcome });
        } catch (error) {
          jobsFailed.inc({ job: name });
          jobDuration.observe({ job: name, outcome: 'failed' }, (performance.now() - timing) / 1000);
          logger.error('job failed', { job: name, jobId, ms: Date.now() - started, error: error instanceof Error ? error.message : String(error) });
          throw error;
        } finally {
          jobsRunning.dec({ job: name });
          running.delete(controller);
        }
      },
      {
        concurrency: name === 'sweep' ? 1 : options.concurrency,
        // A sweep takes milliseconds: a worker that dies holding it delays the next one only briefly.
        lockLifetime: name === 'sweep' ? Math.min(options.lockLifetimeMs, 30_000) : options.lockLifetimeMs,
        removeOnComplete: name !== 'sweep',
        backoff: name === 'sweep' ? undefined : backoffStrategies.exponential({ delay: 1000, maxRetries: 5 }),
      },
    );
  };
  for (const name of JOB_NAMES) define(name);
  await agenda.start();
  // One recurring job among all workers (a single row by name); it first runs now, which finds
  // work left by a worker that died before this one started.
  await agenda.every(`${Math.max(1, Math.round(options.sweepIntervalMs / 1000))} seconds`, 'sweep', {});
  // And one sweep of this worker's own at once: the shared one may be held by a worker that died
  // holding it (until its short lock expires). Two workers sweeping together only double-check.
  // In the background (a large backlog takes a while to enqueue); stop() cuts it short.
  const startSweep = new AbortController();
  const firstSweep = handlers.sweep(deps, {}, { jobId: 'start', signal: startSweep.signal }).then(
    (outcome) => logger.info('start-up sweep done', { ...outcome }),
    (error: unknown) => logger.warn('start-up sweep failed: the recurring sweep will do it', { error: error instanceof Error ? error.message : String(error) }),
  );

  let stopping: Promise<void> | null = null;
  return {
    stop(graceMs) {
      stopping ??= (async () => {
        // Stop taking jobs and give back the ones this worker locked ahead but has not started
        // (the recurring sweep, typically: left locked, no other worker could run it until its
        // lock expired). Running jobs go on; they are counted here (Agenda 6.2.6's drain misses
        // their end and always waits its full timeout).
        startSweep.abort();
        await agenda.stop(false);
        await firstSweep;
        if (!(await settle(running, Date.now() + graceMs))) {
          logger.warn('worker grace period over: aborting running jobs', { running: running.size, graceMs });
          for (const controller of running) controller.abort(new Error('worker shutting down'));
          // Aborted handlers settle quickly (their fetch or send is cut, their claim given back).
          await settle(running, Date.now() + 2_000);
        }
      })();
      return stopping;
    },
  };
}

/** Waits until `running` is empty (true) or `deadline` passes (false). */
async function settle(running: ReadonlySet<unknown>, deadline: number): Promise<boolean> {
  while (running.size > 0) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/**
 * A keyed job gives its key up before its handler reads anything (agenda-queue.ts): a request for
 * the same record made from now on is a job of its own, and one made before it is seen by this run.
 */
async function releaseKey(job: Job<unknown>): Promise<void> {
  const data = job.attrs.data as { key?: unknown } | undefined;
  if (!data || typeof data.key !== 'string' || data.key.endsWith(RUNNING_KEY)) return;
  job.attrs.data = { ...data, key: `${data.key}${RUNNING_KEY}` };
  await job.save();
}
