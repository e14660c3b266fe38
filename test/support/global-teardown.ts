import { dropDatabase } from '../../src/db/embedded';

export default async function globalTeardown(): Promise<void> {
  // A mutation worker keeps its database for its next run (see global setup).
  if (process.env.STRYKER_MUTATOR_WORKER !== undefined) return;
  const state = JSON.parse(process.env.CRM_TEST_DATABASE ?? 'null') as { serverUrl: string; name: string } | null;
  if (state) await dropDatabase(state.serverUrl, state.name);
  const embedded = (globalThis as { __embedded?: { stop(): Promise<void> } | null }).__embedded;
  await embedded?.stop();
}
