import type { AgendaBackend } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { PostgresBackend } from '@agendajs/postgres-backend';
import type { Config } from '../config/config';

/** Where the queue lives: the service's own PostgreSQL, or MongoDB when `MONGODB_URL` is set. */
export type JobStore = { readonly kind: 'postgres'; readonly url: string } | { readonly kind: 'mongodb'; readonly url: string };

export function jobStoreOf(config: Pick<Config, 'mongoUrl'>, databaseUrl: string): JobStore {
  return config.mongoUrl ? { kind: 'mongodb', url: config.mongoUrl } : { kind: 'postgres', url: databaseUrl };
}

/**
 * A connected backend. Agenda's constructor connects the backend it is given and does not catch a
 * failure (an unreachable database would end the process with an unhandled rejection), so the
 * backend is connected here first, where a failure is an ordinary error of start-up, and Agenda is
 * handed a view of it whose `connect` has nothing left to do.
 *
 * PostgreSQL: the table comes from the migrations (migrations/20261129000002-jobs.ts), a small
 * pool of its own, LISTEN/NOTIFY so a worker starts a job as soon as it is saved. MongoDB: polling.
 */
export async function connectJobBackend(store: JobStore, name: string): Promise<AgendaBackend> {
  const backend: AgendaBackend =
    store.kind === 'postgres'
      ? new PostgresBackend({ poolConfig: { connectionString: store.url, max: 4, application_name: `crm-jobs:${name}` }, ensureSchema: false })
      : new MongoBackend({ address: store.url, collection: 'agendaJobs', options: { serverSelectionTimeoutMS: 10_000 } });
  await backend.connect();
  return {
    name: backend.name,
    get repository() {
      return backend.repository;
    },
    get notificationChannel() {
      return backend.notificationChannel;
    },
    get logger() {
      return backend.logger;
    },
    ownsConnection: true,
    connect: async () => undefined,
    disconnect: () => backend.disconnect(),
  } as AgendaBackend;
}
