import type { Agenda } from 'agenda';
import { jobKey, type JobName, type JobPayloads } from '../context/job-names';
import type { JobQueue } from '../context/job-queue';

/**
 * Enqueues on Agenda: a one-time job due now, removed once it succeeds. A record has at most one
 * waiting job (`jobKey`): asking again while one waits makes it due now instead of adding another.
 * A worker listening on the same database is woken at once (NOTIFY); others poll.
 */
export class AgendaQueue implements JobQueue {
  constructor(private readonly agenda: Agenda) {}

  async enqueue<N extends JobName>(name: N, data: JobPayloads[N]): Promise<void> {
    const key = jobKey(name, data);
    const job = this.agenda.create(name, key ? { ...data, key } : { ...data });
    if (key) job.unique({ 'data.key': key });
    job.schedule(new Date());
    await job.save();
  }
}
