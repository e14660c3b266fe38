import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config';

/**
 * The demo account's admin key, kept beside the embedded database so the explorer can fill it in
 * for the developer on this machine (development only, loopback requests only; see
 * http/explorer). Readable by the service's user only (mode 0600). Never logged.
 */
export function demoKeyFile(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'demo-api-key');
}

export function saveDemoKey(config: Pick<Config, 'dataDir'>, apiKey: string): void {
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(demoKeyFile(config), `${apiKey}\n`, { mode: 0o600 });
}

export function readDemoKey(config: Pick<Config, 'dataDir'>): string | null {
  try {
    const key = readFileSync(demoKeyFile(config), 'utf8').trim();
    return /^[A-Za-z0-9_-]{20,200}$/.test(key) ? key : null;
  } catch {
    return null;
  }
}
