import type { Agenda } from 'agenda';
import { jobKey, type JobName, type JobPayloads } from '../context/job-names';
import type { JobQueue } from '../context/job-queue';

/**
 * Enqueues on Agenda: a one-time job, due now or at a given time, removed once it succeeds. A
 * record has at most one waiting job due now and one due later (`jobKey`): asking again while one
 * waits moves it instead of adding another. Once a job runs it no longer holds its key (the worker
 * renames it, see RUNNING_KEY), so a request made while it runs gets a job of its own: Agenda
 * would otherwise fold it into the running job and drop it with that job's end. A worker listening
 * on the same database is woken at once (NOTIFY); others poll.
 */
export class AgendaQueue implements JobQueue {
  constructor(private readonly agenda: Agenda) {}

  async enqueue<N extends JobName>(name: N, data: JobPayloads[N], at?: Date): Promise<void> {
    const base = jobKey(name, data);
    const key = base && at ? `${base}${LATER_KEY}` : base;
    for (let attempt = 1; ; attempt++) {
      const job = this.agenda.create(name, key ? { ...data, key } : { ...data });
      if (key) job.unique({ 'data.key': key });
      job.schedule(at ?? new Date());
      try {
        await job.save();
        return;
      } catch (error) {
        // The postgres backend finds the keyed job, then fails to update it when it started (or
        // ended) in between: asked again, it finds none and adds one.
        if (!key || attempt >= 3 || !(error instanceof TypeError)) throw error;
      }
    }
  }
}

/** The key suffix of a record's job due later (a retry's time), apart from the one due now. */
const LATER_KEY = ':later';
/** The key suffix a running job takes, so that the requests made while it runs are jobs of their own. */
export const RUNNING_KEY = ':running';
