import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreModule } from './module';

export type { CoreModule } from './module';

/** Folders of this directory that are not modules: shared helpers every module may import. */
const NOT_MODULES = new Set(['common']);

const isModule = (value: unknown): value is CoreModule =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as CoreModule).name === 'string' &&
  Array.isArray((value as CoreModule).entities) &&
  Array.isArray((value as CoreModule).resolvers);

/**
 * The composition root: every module of the core, found as the folders of src/modules, each
 * exporting one CoreModule from its index. The ORM takes its entities from here and the schema its
 * resolvers; adding a module is adding its folder. A folder that exports no module, or several,
 * stops the boot naming it, so none is left out silently. (The build empties dist/ first, so a
 * removed module leaves no stale folder behind.) The v3 facade has its own root,
 * rest-facade/modules.ts, and imports nothing of the core but the v3 vocabulary.
 */
export function modulesIn(dir: string): CoreModule[] {
  const found: CoreModule[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (NOT_MODULES.has(name) || !statSync(join(dir, name)).isDirectory()) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the folders, found at run time
    const exported = Object.values(require(join(dir, name)) as Record<string, unknown>).filter(isModule);
    if (exported.length !== 1) throw new Error(`src/modules/${name}/index.ts must export exactly one CoreModule (found ${exported.length})`);
    found.push(exported[0]);
  }
  return found;
}

export const MODULES: readonly CoreModule[] = modulesIn(__dirname);
