import { Client } from 'pg';
import { logger } from '../common/logger';

/**
 * A worker listens on `crm_webhooks`, which the change records NOTIFY at commit when an account
 * with an enabled webhook endpoint changed (migration 20261203000003), and wakes its dispatcher
 * at once (in process: no job to save and pick up; the dispatcher folds the notifications that
 * come during a pass into one more pass). A lost connection is only late work: the sweep
 * dispatches too.
 */
export async function listenForChanges(databaseUrl: string, wake: () => void): Promise<{ close(): Promise<void> }> {
  const client = new Client({ connectionString: databaseUrl });
  let closed = false;
  client.on('error', (error) => logger.warn('webhook change listener lost its connection (the sweep dispatches meanwhile)', { error: error.message }));
  client.on('notification', () => {
    if (!closed) wake();
  });
  await client.connect();
  await client.query('LISTEN crm_webhooks');
  return {
    async close() {
      closed = true;
      await client.end().catch(() => undefined);
    },
  };
}
