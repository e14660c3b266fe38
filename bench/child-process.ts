import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The bench's processes (app server, raw baseline, load generator) are children that answer
 * commands over the IPC channel, each optionally started under `taskset -c <cpu>` so it and all
 * its threads stay on one CPU for the whole run.
 */

/**
 * Both servers and the load generator run with the V8 flags `npm start` gives the service (read
 * from package.json's `start` script, so the bench measures what is run): the young generation's
 * size, settled by the bench (bench/README.md, "The young generation").
 */
export const NODE_FLAGS: readonly string[] = startFlags();

function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(`${__dirname}/${__dirname.includes('/dist/') ? '../../' : '../'}package.json`, 'utf8')) as { scripts: { start: string } };
  const flags = pkg.scripts.start.split(/\s+/).filter((word) => word.startsWith('--max-semi-space-size='));
  if (flags.length !== 1) throw new Error(`package.json "start" should give node one --max-semi-space-size (found ${flags.length})`);
  return flags;
}

interface Command {
  readonly id: number;
  readonly cmd: string;
  readonly arg?: unknown;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface Child {
  readonly pid: number;
  /** Cpus_allowed_list of the child as the kernel reports it (what it really runs on). */
  cpus(): string;
  call<T>(cmd: string, arg?: unknown): Promise<T>;
  /** Asks the child to finish (`exit` command) and waits for it to go. */
  close(): Promise<void>;
}

/** The CPUs this process may run on (Linux), e.g. [0, 1]; null where unknown. */
export function allowedCpus(pid: number | 'self' = 'self'): number[] | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Cpus_allowed_list:'));
    if (!line) return null;
    const cpus: number[] = [];
    for (const part of line.split(':')[1].trim().split(',')) {
      const [from, to] = part.split('-').map(Number);
      for (let c = from; c <= (to ?? from); c++) cpus.push(c);
    }
    return cpus;
  } catch {
    return null;
  }
}

export function tasksetAvailable(): boolean {
  const probe = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

export function startChild(script: string, cpu: number | null, env: NodeJS.ProcessEnv): Child {
  const nodeArgs = [...NODE_FLAGS, script];
  const stdio: Array<'ignore' | 'inherit' | 'ipc'> = ['ignore', 'inherit', 'inherit', 'ipc'];
  // taskset execs node: the IPC descriptor and its environment variable pass through unchanged.
  const proc: ChildProcess =
    cpu === null ? spawn(process.execPath, nodeArgs, { stdio, env }) : spawn('taskset', ['-c', String(cpu), process.execPath, ...nodeArgs], { stdio, env });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  let exited: Error | null = null;
  proc.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error));
  });
  const exitedPromise = new Promise<void>((resolve) =>
    proc.once('exit', (code, signal) => {
      exited = new Error(`${script} exited (${signal ?? code})`);
      for (const p of pending.values()) p.reject(exited);
      pending.clear();
      resolve();
    }),
  );
  proc.once('error', (error) => {
    exited = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  });
  const call = <T>(cmd: string, arg?: unknown) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(exited);
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      proc.send({ id, cmd, arg } satisfies Command);
    });
  return {
    pid: proc.pid!,
    cpus: () => allowedCpus(proc.pid!)?.join(',') ?? '?',
    call,
    async close() {
      if (exited) return;
      await call('exit').catch(() => undefined);
      await exitedPromise;
    },
  };
}

/** The child's side: runs each command's handler and replies; `exit` runs `onExit` then leaves. */
export function serveCommands(handlers: Record<string, (arg: any) => unknown>, close: () => Promise<void> = async () => undefined): void {
  let closing: Promise<void> | null = null;
  const onExit = () => (closing ??= close());
  const handle = async ({ id, cmd, arg }: Command): Promise<void> => {
    const reply = (r: Reply) => new Promise<void>((resolve) => process.send!(r, () => resolve()));
    if (cmd === 'exit') {
      await onExit().catch(() => undefined);
      await reply({ id, ok: true, value: null });
      process.exit(0);
    }
    try {
      const handler = handlers[cmd];
      if (!handler) throw new Error(`unknown command ${cmd}`);
      await reply({ id, ok: true, value: await handler(arg) });
    } catch (error) {
      await reply({ id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  };
  process.on('message', (command: Command) => void handle(command));
  // The parent went away (crash, Ctrl-C): do not linger holding ports and connections.
  process.on('disconnect', () => void onExit().finally(() => process.exit(0)));
}
