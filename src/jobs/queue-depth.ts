import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Waiting jobs by name, for the metrics (read at scrape): due now (waiting for a worker) and
 * scheduled for later (a retry's backoff, the recurring sweep). Locked jobs are running, not
 * waiting. One grouped count over Agenda's table (migrations/20261129000002-jobs.ts), on its
 * find-and-lock index: as many rows as job names. PostgreSQL store only (MONGODB_URL: not read).
 */
export async function queuedJobCounts(orm: MikroORM): Promise<Array<{ name: string; due: number; scheduled: number }>> {
  return orm.em.getConnection().execute<Array<{ name: string; due: number; scheduled: number }>>(
    `select "name", count(*) filter (where "next_run_at" <= now())::int as due, count(*) filter (where "next_run_at" > now())::int as scheduled
       from "agenda_jobs" where "disabled" = false and "next_run_at" is not null and "locked_at" is null group by "name"`,
    [],
    'all',
  );
}
