import { Client } from 'pg';
import { logger } from '../common/logger';
import type { JobQueue } from '../context/job-queue';

/** Notifications within this window make one dispatch. */
const COALESCE_MS = 20;

/**
 * A worker listens on `crm_webhooks`, which the change records NOTIFY at commit when an account
 * with an enabled webhook endpoint changed (migration 20261203000003), and enqueues a dispatch:
 * deliveries start within milliseconds of the commit. A lost connection is only late work: the
 * sweep dispatches too.
 */
export async function listenForChanges(databaseUrl: string, queue: JobQueue): Promise<{ close(): Promise<void> }> {
  const client = new Client({ connectionString: databaseUrl });
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  client.on('error', (error) => logger.warn('webhook change listener lost its connection (the sweep dispatches meanwhile)', { error: error.message }));
  client.on('notification', () => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      queue.enqueue('dispatch-webhooks', {}).catch((error: unknown) => logger.warn('enqueueing a webhook dispatch failed', { error: String(error) }));
    }, COALESCE_MS);
  });
  await client.connect();
  await client.query('LISTEN crm_webhooks');
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await client.end().catch(() => undefined);
    },
  };
}
