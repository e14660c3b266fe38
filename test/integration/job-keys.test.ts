import { Agenda } from 'agenda';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm } from '../../src/app/orm';
import { AgendaQueue } from '../../src/jobs/agenda-queue';
import { connectJobBackend } from '../../src/jobs/backend';
import type { JobDeps, JobHandlers } from '../../src/jobs/job-run';
import { startWorker, type RunningWorker } from '../../src/jobs/worker';
import { ownDatabase } from '../support/own-database';

/**
 * A record's job key (agenda-queue.ts) on the real queue: a request made while the record's job
 * runs is not lost with that job's end, and a job due later does not delay the one due now.
 */
describe('job keys', () => {
  let database: Awaited<ReturnType<typeof ownDatabase>>;
  let orm: MikroORM;
  let agenda: Agenda;
  let queue: AgendaQueue;
  let worker: RunningWorker;
  let backend: Awaited<ReturnType<typeof connectJobBackend>>;
  /** Runs of 'deliver-webhooks' by endpoint, with when they started. */
  const runs: Array<{ endpointId: number; at: number }> = [];
  /** A run of endpoint 1 waits for this while it is set. */
  let gate: Promise<void> | null = null;

  beforeAll(async () => {
    database = await ownDatabase('jobkeys');
    orm = await openOrm({ clientUrl: database.url, statementTimeoutMs: 10_000 });
    await migrate(orm);
    backend = await connectJobBackend({ kind: 'postgres', url: database.url }, 'test:job-keys');
    agenda = new Agenda({ backend, name: 'test:job-keys', processEvery: 100, defaultLockLifetime: 60_000, maxConcurrency: 4 });
    await agenda.ready;
    queue = new AgendaQueue(agenda);
    const idle = async () => ({ status: 'skipped' });
    const handlers: JobHandlers = {
      'deliver-mail': idle,
      'fetch-document': idle,
      sweep: idle,
      'dispatch-webhooks': idle,
      'run-export': idle,
      'run-import': idle,
      'deliver-webhooks': async (_deps: JobDeps, data: { endpointId: number }) => {
        runs.push({ endpointId: data.endpointId, at: Date.now() });
        if (gate) await gate;
        return { status: 'sent' };
      },
    };
    worker = await startWorker(agenda, { orm, queue } as unknown as JobDeps, handlers, { concurrency: 2, lockLifetimeMs: 60_000, sweepIntervalMs: 3_600_000 });
  }, 60_000);

  afterAll(async () => {
    await worker?.stop(1000);
    await backend?.disconnect();
    await orm?.close(true);
    await database?.drop();
  });

  const until = async (check: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const runsOf = (endpointId: number) => runs.filter((r) => r.endpointId === endpointId);

  it('a request made while the record`s job runs gets a run of its own', async () => {
    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    await queue.enqueue('deliver-webhooks', { endpointId: 1 });
    await until(() => runsOf(1).length === 1);
    // While the first run is in its handler: Agenda would fold this into the running job.
    await queue.enqueue('deliver-webhooks', { endpointId: 1 });
    await queue.enqueue('deliver-webhooks', { endpointId: 1 });
    gate = null;
    open();
    await until(() => runsOf(1).length === 2);
    // The two requests made while it ran were one waiting job: one more run, not two.
    await new Promise((r) => setTimeout(r, 500));
    expect(runsOf(1)).toHaveLength(2);
  });

  it('a job due later waits for its time and leaves the one due now alone', async () => {
    const asked = Date.now();
    await queue.enqueue('deliver-webhooks', { endpointId: 2 }, new Date(asked + 1500));
    await queue.enqueue('deliver-webhooks', { endpointId: 2 });
    await until(() => runsOf(2).length === 2, 15_000);
    const [now, later] = runsOf(2);
    expect(now.at - asked).toBeLessThan(1400);
    expect(later.at - asked).toBeGreaterThanOrEqual(1400);
  });
});
