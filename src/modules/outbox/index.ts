import type { CoreModule } from '../module';
import { OutboxMessage } from './outbox-message.entity';

/** Mail owed by committed changes (typed intents), delivered by the jobs. */
export const outboxModule: CoreModule = { name: 'outbox', entities: [OutboxMessage], resolvers: [] };
