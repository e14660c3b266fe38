import { dirname } from 'node:path';

/**
 * Counts SQL statements at the driver: every statement any code in this process sends to
 * PostgreSQL goes through a `pg` Client's `query`. Several copies of `pg` are installed (the top
 * level, knex's and MikroORM's own), so each copy found is wrapped. Callers should check that the
 * count saw a statement they know ran (a wrapper on an unused copy would count nothing).
 */

interface PgModule {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
}

function pgCopies(): PgModule[] {
  const anchors = [__dirname, dirname(require.resolve('knex')), dirname(require.resolve('@mikro-orm/postgresql')), dirname(require.resolve('@mikro-orm/knex'))];
  const paths = new Set<string>();
  for (const anchor of anchors) {
    try {
      paths.add(require.resolve('pg', { paths: [anchor] }));
    } catch {
      // this package resolves no pg of its own
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- every copy of pg, found at run time
  return [...paths].map((p) => require(p) as PgModule);
}

function sqlText(args: unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') return (first as { text: string }).text;
  return String(first);
}

/** Runs `fn`, recording every statement sent through any pg copy meanwhile. */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const restore: Array<() => void> = [];
  for (const pg of pgCopies()) {
    const proto = pg.Client.prototype;
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      statements.push(sqlText(args));
      return original.apply(this, args);
    };
    restore.push(() => (proto.query = original));
  }
  try {
    return { result: await fn(), statements };
  } finally {
    restore.forEach((r) => r());
  }
}
