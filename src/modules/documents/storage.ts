import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
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
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<StoredBytes | null>;
  /** Removes the bytes under `key`; nothing when there are none. */
  delete(key: string): Promise<void>;
}

/** `<account>/<document>-<24 hex>`: what the service makes; anything else is refused before it reaches a path. */
const KEY = /^[0-9]{1,10}\/[0-9]{1,10}-[0-9a-f]{24}$/;

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
