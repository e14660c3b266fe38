import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { bulkStorageKey, LocalDiskStorage, TooLargeError } from '../../src/modules/documents/storage';

describe('LocalDiskStorage.putStream', () => {
  let dir: string;
  let storage: LocalDiskStorage;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crm-storage-'));
    storage = new LocalDiskStorage(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('streams chunks to a bulk key and reads them back whole', async () => {
    const key = bulkStorageKey('exports', 7, 12, 'jsonl');
    expect(key).toMatch(/^exports\/7\/12-[0-9a-f]{24}\.jsonl$/);
    const written = await storage.putStream(key, Readable.from(['{"a":1}\n', Buffer.from('{"a":2}\n')]));
    expect(written).toBe(16);
    const stored = await storage.get(key);
    expect(stored?.size).toBe(16);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('{"a":1}\n{"a":2}\n');
  });

  it('stores nothing past its bound and says so', async () => {
    const key = bulkStorageKey('imports', 7, 13, 'csv');
    await expect(storage.putStream(key, Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000)).rejects.toBeInstanceOf(TooLargeError);
    expect(await storage.get(key)).toBeNull();
    expect(await readdir(join(dir, 'imports', '7'))).toEqual([]); // no temporary file left
  });

  it('refuses keys it did not make', async () => {
    for (const key of ['imports/7/../../etc-aaaaaaaaaaaaaaaaaaaaaaaa.csv', 'exports/7/1-abc.csv', 'other/7/1-aaaaaaaaaaaaaaaaaaaaaaaa.csv']) {
      await expect(storage.putStream(key, Readable.from(['x']))).rejects.toThrow('not a document storage key');
    }
    await expect(readFile(join(dir, 'etc'))).rejects.toThrow();
  });
});
