import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** graphql-js's deep paths (`graphql/execution/collectFields`) are not its public API: they move between minor versions. */
describe('graphql imports', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });

  it('come from the package root only', () => {
    const root = join(__dirname, '..', '..');
    const offenders = ['src', 'rest-facade', 'bench']
      .flatMap((dir) => files(join(root, dir)))
      .filter((file) => /from ['"]graphql\/[^'"]+['"]/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
