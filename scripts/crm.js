#!/usr/bin/env node
// `npm run --silent crm -- <command>`: builds when the compiled CLI is missing or older than the
// sources (build output goes to stderr, so stdout carries exactly one JSON line), then runs it.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'src', 'cli', 'crm.js');
// tsc leaves unchanged outputs untouched, so freshness is judged against a stamp written after each build.
const stamp = join(root, 'dist', '.crm-build-stamp');

function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) latest = Math.max(latest, newest(path));
    else if (name.name.endsWith('.ts') || name.name.endsWith('.graphql')) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const stale = !existsSync(entry) || !existsSync(stamp) || ['src', 'rest-facade', 'migrations'].some((d) => newest(join(root, d)) > statSync(stamp).mtimeMs);
if (stale) {
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (tsc.status !== 0) {
    process.stdout.write(JSON.stringify({ error: 'build failed; see stderr' }) + '\n');
    process.exit(1);
  }
  writeFileSync(stamp, new Date().toISOString());
}
require(entry);
