import { readFileSync, rmSync } from 'node:fs';
import { dropDatabase } from '../../src/db/embedded';
import { STATE_FILE } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { serverUrl: string; name: string };
  await dropDatabase(state.serverUrl, state.name);
  rmSync(STATE_FILE, { force: true });
  const embedded = (globalThis as { __embedded?: { stop(): Promise<void> } }).__embedded;
  await embedded?.stop();
}
