import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSchema, printCanonicalSchema } from '../../src/app/schema';

/**
 * House style §11: the committed schema.graphql is generated from the code and must not drift.
 * Regenerate with `npm run schema:emit` (builds, then runs src/cli/emit-schema.ts).
 */
describe('schema.graphql', () => {
  const committed = join(__dirname, '..', '..', 'schema.graphql');

  it('is committed', () => {
    expect(existsSync(committed)).toBe(true);
  });

  it('matches the schema built from the code (run `npm run schema:emit` after changing it)', () => {
    const fromCode = printCanonicalSchema(createSchema());
    expect(readFileSync(committed, 'utf8')).toBe(fromCode);
  });
});
