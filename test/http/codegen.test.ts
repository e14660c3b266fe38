import { codegen } from '@graphql-codegen/core';
import * as typescriptOperations from '@graphql-codegen/typescript-operations';
import { buildSchema, parse } from 'graphql';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { EXAMPLES } from '../../src/http/explorer/examples';

/**
 * A front-end team generates a typed client from the committed schema with GraphQL Code Generator
 * (docs/graphql-api.md, "Typed clients"): its `typescript-operations` plugin, with that
 * configuration, must accept the schema and the example operations, and what it writes must
 * compile in a strict project. The generator's core runs the plugin as its CLI does; the CLI
 * itself is the team's to install (its loaders for URLs, GitHub and Apollo want Node 22).
 */
const ROOT = join(__dirname, '..', '..');

describe('GraphQL Code Generator', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'crm-codegen-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates TypeScript types from schema.graphql and the example operations, and they compile', async () => {
    const schema = buildSchema(readFileSync(join(ROOT, 'schema.graphql'), 'utf8'));
    const output = await codegen({
      filename: join(dir, 'graphql.ts'),
      schema: parse(readFileSync(join(ROOT, 'schema.graphql'), 'utf8')),
      schemaAst: schema,
      documents: [{ location: 'operations.graphql', document: parse(EXAMPLES.map((e) => e.query).join('\n')) }],
      plugins: [{ 'typescript-operations': {} }],
      pluginMap: { 'typescript-operations': typescriptOperations },
      config: { scalars: { DateTimeISO: 'string', JSON: 'unknown', JSONObject: 'Record<string, unknown>' } },
    });
    writeFileSync(join(dir, 'graphql.ts'), output);
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
