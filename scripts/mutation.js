#!/usr/bin/env node
// `npm run test:mutation`: StrykerJS over the parsers, visibility, SQL helpers and services
// (stryker.config.mjs), then drops the databases its workers made (test/support/global-setup.ts).
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

if (!process.env.DATABASE_URL) {
  process.stderr.write('test:mutation needs DATABASE_URL (a PostgreSQL server where it may create databases)\n');
  process.exit(2);
}
const env = { ...process.env };
delete env.TEST_DATABASE_URL; // each worker makes its own
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [join(__dirname, '..', 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', ...process.argv.slice(2)],
  { cwd: join(__dirname, '..'), env, stdio: 'inherit' },
);
process.stderr.write(`test:mutation: ${Math.round((Date.now() - started) / 1000)} s\n`);

async function dropWorkerDatabases() {
  const { Client } = require('pg');
  const server = new URL(process.env.DATABASE_URL);
  server.pathname = '/postgres';
  const client = new Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const { rows } = await client.query("select datname from pg_database where datname like 'crm\\_mutation\\_%'");
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
}

dropWorkerDatabases().then(
  () => process.exit(run.status ?? 1),
  (error) => {
    process.stderr.write(`could not drop the mutation databases: ${error.message}\n`);
    process.exit(run.status ?? 1);
  },
);
