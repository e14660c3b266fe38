import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { EXAMPLES } from '../../src/http/explorer/examples';

/**
 * A front-end team generates a typed client from the committed schema with GraphQL Code Generator
 * (docs/graphql-api.md, "Typed clients"): its CLI, with that configuration, must accept the schema and
 * the example operations, and what it writes must compile in a strict project. (The CLI runs in
 * its own process: its ES modules do not load under Jest's CommonJS transform.)
 */
const ROOT = join(__dirname, '..', '..');

describe('GraphQL Code Generator', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'crm-codegen-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates TypeScript types from schema.graphql and the example operations, and they compile', async () => {
    writeFileSync(join(dir, 'operations.graphql'), EXAMPLES.map((e) => e.query).join('\n'));
    writeFileSync(
      join(dir, 'codegen.json'),
      JSON.stringify({
        schema: join(ROOT, 'schema.graphql'),
        documents: join(dir, 'operations.graphql'),
        generates: {
          [join(dir, 'graphql.ts')]: {
            plugins: ['typescript-operations'],
            config: { scalars: { DateTimeISO: 'string', JSON: 'unknown', JSONObject: 'Record<string, unknown>' } },
          },
        },
      }),
    );
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js'), '--config', join(dir, 'codegen.json')],
      { cwd: ROOT, timeout: 90_000 },
    ); // plugins resolve from the project
    const code = readFileSync(join(dir, 'graphql.ts'), 'utf8');
    expect(code).toContain('export type ListPeopleQuery =');
    expect(code).toContain('export type FilterPeopleQuery =');
    expect(code).toContain('export type CreatePersonMutationVariables =');
    expect(code).toContain('export type UserErrorCode =');
    expect(code).toContain('export type PersonCreateInput = {');

    // The generated module and a use of it type-check strictly (no emit).
    writeFileSync(
      join(dir, 'use.ts'),
      `import type { ListPeopleQuery, UpdatePersonMutation } from './graphql';
export const names = (q: ListPeopleQuery): string[] => q.people.nodes.map((p) => p.fullName);
export const problems = (m: UpdatePersonMutation): string[] => m.updatePerson.userErrors.map((e) => e.code + ': ' + e.message);
`,
    );
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      skipLibCheck: true,
      types: [],
    };
    const program = ts.createProgram([join(dir, 'graphql.ts'), join(dir, 'use.ts')], options);
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  }, 120_000);
});
