#!/usr/bin/env node
// Lists what changed between two GraphQL schemas (default: the newest snapshot in docs/schema/ and
// the committed schema.graphql): breaking changes, dangerous ones, and additions. Run it before a
// release to write the SCHEMA_CHANGELOG.md entry; test/contract/schema-changelog.test.ts checks
// the changelog names every breaking change.
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { schemaChanges } = require('../dist/src/graphql/schema-changes');

const root = join(__dirname, '..');
const snapshots = readdirSync(join(root, 'docs', 'schema'))
  .filter((f) => /^v\d+\.graphql$/.test(f))
  .sort((a, b) => parseInt(a.slice(1)) - parseInt(b.slice(1)));
const [from = join(root, 'docs', 'schema', snapshots[snapshots.length - 1]), to = join(root, 'schema.graphql')] = process.argv.slice(2);
const changes = schemaChanges(readFileSync(from, 'utf8'), readFileSync(to, 'utf8'));
for (const kind of ['breaking', 'dangerous', 'added']) {
  process.stdout.write(`## ${kind} (${changes[kind].length})\n`);
  for (const c of changes[kind]) process.stdout.write(`- ${c.coordinate}: ${c.description}\n`);
}
