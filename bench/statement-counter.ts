import { dirname } from 'node:path';

/**
 * SQL statement counting: every statement of every driver copy goes through pg's Client#query
 * (knex, under MikroORM, calls it once per statement; so does pg.Pool). Wrapping the prototype
 * before anything connects counts what really reaches PostgreSQL, whoever sends it.
 */

const log = { recording: false, statements: [] as string[] };

function pgCopies(): string[] {
  const seen = new Set<string>();
  const from = ['.', 'knex', '@mikro-orm/knex', '@mikro-orm/postgresql'];
  for (const origin of from) {
    try {
      const base = origin === '.' ? __dirname : dirname(require.resolve(`${origin}/package.json`));
      seen.add(require.resolve('pg', { paths: [base] }));
    } catch {
      // That package is not installed: nothing of it to wrap.
    }
  }
  return [...seen];
}

/** Wraps Client#query in every copy of pg; returns how many copies were wrapped. */
export function installStatementCounter(): number {
  const copies = pgCopies();
  for (const path of copies) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every copy of pg, found at run time
    const proto = require(path).Client.prototype as { query: (...args: unknown[]) => unknown; __benchWrapped?: boolean };
    if (proto.__benchWrapped) continue;
    const original = proto.query;
    proto.query = function countedQuery(this: unknown, ...args: unknown[]) {
      if (log.recording) {
        const first = args[0] as string | { text?: string } | undefined;
        log.statements.push(typeof first === 'string' ? first : String(first?.text ?? '<submittable>'));
      }
      return original.apply(this, args);
    };
    proto.__benchWrapped = true;
  }
  return copies.length;
}

export function startRecording(): void {
  log.statements = [];
  log.recording = true;
}

export function stopRecording(): string[] {
  log.recording = false;
  return log.statements;
}
