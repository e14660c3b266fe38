import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The built service (dist/, `npm run build` first) as real child processes: `npm start`'s or `npm run worker`'s. */

const root = join(__dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Child {
  readonly port: number;
  readonly process: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Resolves with the first stderr log line matching `pattern` (already written or still to come). */
  logLine(pattern: RegExp): Promise<string>;
}

/**
 * Starts the server as a child process: `node <entry>`, or with `script` the way npm runs a
 * package.json script (`sh -c <script>`, the shell being the child npm signals).
 */
export async function startChild(env: Record<string, string> = {}, options: { entry?: string; ready?: string; script?: string } = {}): Promise<Child> {
  const entry = options.entry ?? 'dist/src/main.js';
  const ready = options.ready ?? 'CRM listening on';
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATABASE_STATEMENT_TIMEOUT_MS: '120000',
    ...env,
  };
  // As `npm start` runs it: jest's NODE_ENV=test would change what libraries do on signals (Apollo).
  delete childEnv.NODE_ENV;
  const child = options.script
    ? spawn('/bin/sh', ['-c', options.script], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [entry], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const lines: string[] = [];
  const watchers: Array<() => void> = [];
  let buffered = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    if (process.env.DEBUG_CHILD) for (const line of parts) process.stderr.write(`[${entry} ${port}] ${line}\n`);
    for (const wake of watchers.splice(0)) wake();
  });
  const logLine = async (pattern: RegExp): Promise<string> => {
    for (;;) {
      const found = lines.find((l) => pattern.test(l));
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) without logging ${pattern}:\n${lines.join('\n')}`);
      await new Promise<void>((wake) => {
        watchers.push(wake);
        child.once('exit', wake);
      });
    }
  };
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before it was ready:\n${lines.join('\n')}`)));
  });
  return { port, process: child, exited, logLine };
}
