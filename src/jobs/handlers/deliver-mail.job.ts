import { mailDeliveries } from '../../common/metrics';
import { deliverOutboxMessage } from '../../modules/outbox';
import type { JobHandler } from '../job-run';

/**
 * Delivers one outbox row (src/modules/outbox/deliver.ts): claimed with a lease, sent with its
 * stable Message-ID, recorded once. A failure that will be retried sets the row's next attempt;
 * the sweep enqueues it again when that time comes.
 */
export const deliverMail: JobHandler<'deliver-mail'> = async (deps, data) => {
  if (!deps.transport) return { status: 'skipped', reason: 'no SMTP_URL: the mail stays in the outbox' };
  const result = await deliverOutboxMessage(deps.orm.em.fork(), deps.transport, data.outboxMessageId, deps.deliveryPolicy);
  // What this attempt did (a skipped row was delivered or claimed elsewhere: no attempt).
  if (result.status !== 'skipped') mailDeliveries.inc({ outcome: result.status });
  return { ...result };
};
