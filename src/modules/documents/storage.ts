import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, opendir, rename, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import type { Config } from '../../config/config';
import { logger } from '../../common/logger';

/** Stored bytes as read back: their size and a stream of them (read once). */
export interface StoredBytes {
  readonly size: number;
  readonly body: Readable;
}

/**
 * Where fetched documents' bytes live. Keys are made by the service (`storageKeyFor`), never taken
 * from user input; `put` replaces nothing a reader could see half-written.
 */
export interface DocumentStorage {
  put(key: string, bytes: Buffer): Promise<void>;
  /**
   * Streams `body` under `key` without holding it in memory; answers the bytes written. Past
   * `maxBytes` it stops, stores nothing and throws TooLargeError. Like `put`, all or nothing.
   */
  putStream(key: string, body: Readable | AsyncIterable<Buffer | string>, maxBytes?: number): Promise<number>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<StoredBytes | null>;
  /** Removes the bytes under `key`; nothing when there are none. */
  delete(key: string): Promise<void>;
  /**
   * Removes what writes cut short left behind (a process killed during a `put` or `putStream`):
   * partial files untouched for `olderThanMs`, at most `limit`; answers how many.
   */
  removeStale(olderThanMs: number, limit: number): Promise<number>;
}

/** A write's temporary file: `<final name>.tmp-<12 hex>`. */
const TEMPORARY = /\.tmp-[0-9a-f]{12}$/;

/**
 * `<account>/<document>-<24 hex>` for documents, `<imports|exports>/<account>/<id>-<24 hex>.<csv|jsonl>`
 * for bulk files (bulkStorageKey): what the service makes; anything else is refused before it reaches a path.
 */
const KEY = /^(?:(?:imports|exports)\/[0-9]{1,10}\/[0-9]{1,10}-[0-9a-f]{24}\.(?:csv|jsonl)|[0-9]{1,10}\/[0-9]{1,10}-[0-9a-f]{24})$/;

/** A stream given to `putStream` went past its bound. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

/** A fresh key for a bulk import's uploaded file or an export's output (issue 27), in a folder of its own kind. */
export function bulkStorageKey(kind: 'imports' | 'exports', accountId: number, id: number, format: 'csv' | 'jsonl'): string {
  return `${kind}/${accountId}/${id}-${randomBytes(12).toString('hex')}.${format}`;
}

/** A fresh key for a document's bytes: each fetch stores under its own, so a reader never sees a half-replaced file. */
export function storageKeyFor(accountId: number, documentId: number): string {
  return `${accountId}/${documentId}-${randomBytes(12).toString('hex')}`;
}

function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error('not a document storage key');
  return key;
}

/**
 * Bytes on the local disk under `dir` (created on demand): `<dir>/<account>/<document>-<random>`.
 * A write goes to a temporary file in the same folder, is flushed, then renamed into place, so a
 * crash leaves either the whole file or none (a stray `.tmp-*` file at worst).
 */
export class LocalDiskStorage implements DocumentStorage {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private pathOf(key: string): string {
    const path = join(this.root, ...checkedKey(key).split('/'));
    // The key's shape already rules it out; a second look costs nothing.
    if (!path.startsWith(this.root + sep)) throw new Error('not a document storage key');
    return path;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.tmp-${randomBytes(6).toString('hex')}`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await handle.close();
    try {
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  async putStream(key: string, body: Readable | AsyncIterable<Buffer | string>, maxBytes = Number.MAX_SAFE_INTEGER): Promise<number> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.tmp-${randomBytes(6).toString('hex')}`;
    const handle = await open(temporary, 'wx', 0o600);
    let written = 0;
    const bound = new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        written += bytes.length;
        done(written > maxBytes ? new TooLargeError(maxBytes) : null, bytes);
      },
    });
    try {
      // The stream owns the handle: it flushes the file to disk, then closes it.
      await pipeline(body, bound, handle.createWriteStream({ flush: true }));
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    try {
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    return written;
  }

  async get(key: string): Promise<StoredBytes | null> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      // The stream owns the handle from here and closes it when done (or destroyed).
      return { size, body: handle.createReadStream({ autoClose: true }) };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Walks the folders keys make (`<account>/`, `imports|exports/<account>/`) for temporary files; a write in progress keeps touching its own. */
  async removeStale(olderThanMs: number, limit: number): Promise<number> {
    const before = Date.now() - olderThanMs;
    let removed = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
      let entries;
      try {
        entries = await opendir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for await (const entry of entries) {
        if (removed >= limit) break;
        const path = join(dir, entry.name);
        if (entry.isDirectory() && depth < 2) await walk(path, depth + 1);
        else if (entry.isFile() && TEMPORARY.test(entry.name)) {
          const stats = await lstat(path).catch(() => null);
          if (stats && stats.mtimeMs < before) {
            await unlink(path).catch(() => undefined);
            removed += 1;
          }
        }
      }
    };
    await walk(this.root, 0);
    return removed;
  }
}

/** The storage a configuration names (`DOCUMENTS_DIR`, default `<data folder>/documents`). */
export function createDocumentStorage(config: Pick<Config, 'documents'>): DocumentStorage {
  return new LocalDiskStorage(config.documents.dir);
}

/**
 * The storage this process's services remove deleted documents' bytes from (after the delete
 * commits). Set once at boot, beside the public link router and the worker, with the same storage;
 * unset, a deleted document's bytes stay on disk (logged).
 */
let processStorage: DocumentStorage | null = null;

export function setDocumentStorage(storage: DocumentStorage | null): void {
  processStorage = storage;
}

export function documentStorage(): DocumentStorage | null {
  return processStorage;
}

/**
 * Answers a GET (or HEAD) with stored bytes, headers already set but the length: streamed, never
 * held; a read failing midway cuts the response (logged with `what`), and a client going away
 * stops the read.
 */
export function sendStoredBytes(req: { readonly method: string }, res: ServerResponse, stored: StoredBytes, what: Record<string, unknown>): void {
  res.setHeader('Content-Length', String(stored.size));
  if (req.method === 'HEAD') {
    stored.body.destroy();
    res.end();
    return;
  }
  stored.body.on('error', (error) => {
    logger.error('reading stored bytes failed', { ...what, error: error.message });
    res.destroy(error);
  });
  res.on('close', () => stored.body.destroy());
  stored.body.pipe(res);
}

/** Removes stored bytes, logging instead of failing (the row is already gone or changed). */
export async function discardStoredBytes(storage: DocumentStorage | null, key: string | null | undefined, why: string): Promise<void> {
  if (!key) return;
  if (!storage) {
    logger.warn('document bytes left in storage: no document storage is set in this process', { why });
    return;
  }
  try {
    await storage.delete(key);
  } catch (error) {
    logger.error('document bytes could not be removed from storage', { why, error: error instanceof Error ? error.message : String(error) });
  }
}
