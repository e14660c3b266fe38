import { dropDatabase } from '../../src/db/embedded';

export default async function globalTeardown(): Promise<void> {
  const state = JSON.parse(process.env.CRM_TEST_DATABASE ?? 'null') as { serverUrl: string; name: string } | null;
  if (state) await dropDatabase(state.serverUrl, state.name);
  const embedded = (globalThis as { __embedded?: { stop(): Promise<void> } | null }).__embedded;
  await embedded?.stop();
}
