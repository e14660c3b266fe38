import { relative } from 'node:path';

/** The repository's root: this file is src/kit/source-path.ts, or dist/src/kit/source-path.js once built. */
const ROOT = __dirname.replace(/[\\/](?:dist[\\/])?src[\\/]kit$/, '');

/**
 * A source file as the repository names it (`src/modules/deals/deal.entity.ts`), from a path the
 * runtime or the ORM gives, built or not: how boot errors name the file to change.
 */
export function sourcePath(path: string): string {
  return relative(ROOT, path)
    .replace(/\\/g, '/')
    .replace(/^dist\//, '')
    .replace(/\.js$/, '.ts');
}
