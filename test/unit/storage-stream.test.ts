import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
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

describe('LocalDiskStorage.removeStale', () => {
  let dir: string;
  let storage: LocalDiskStorage;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crm-storage-'));
    storage = new LocalDiskStorage(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('removes the partial files of writes cut short once untouched long enough, and nothing else', async () => {
    const kept = bulkStorageKey('exports', 7, 14, 'csv');
    await storage.putStream(kept, Readable.from(['a,b\n']));
    const document = '7/15-0123456789abcdef01234567';
    await storage.put(document, Buffer.from('bytes'));
    // What a process killed mid-write leaves: a temporary file beside where the final one would be.
    const hourAgo = new Date(Date.now() - 2 * 3_600_000);
    const leftovers = [
      join(dir, 'exports', '7', '16-aaaaaaaaaaaaaaaaaaaaaaaa.csv.tmp-0123456789ab'),
      join(dir, '7', '16-0123456789abcdef01234567.tmp-ba9876543210'),
    ];
    for (const path of leftovers) {
      await writeFile(path, 'partial');
      await utimes(path, hourAgo, hourAgo);
    }
    // A write still going (touched just now) and a file that only looks alike.
    const fresh = join(dir, 'imports-like.tmp-00000000000f');
    await writeFile(fresh, 'in progress');
    const lookalike = join(dir, 'exports', '7', 'notes.tmp-xyz');
    await writeFile(lookalike, 'not ours');
    await utimes(lookalike, hourAgo, hourAgo);

    expect(await storage.removeStale(3_600_000, 100)).toBe(2);
    for (const path of leftovers) await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(fresh)).resolves.toBeDefined();
    await expect(stat(lookalike)).resolves.toBeDefined();
    expect((await storage.get(kept))?.size).toBe(4);
    expect((await storage.get(document))?.size).toBe(5);
    // At most `limit` a call.
    await writeFile(leftovers[0], 'partial');
    await utimes(leftovers[0], hourAgo, hourAgo);
    await writeFile(leftovers[1], 'partial');
    await utimes(leftovers[1], hourAgo, hourAgo);
    expect(await storage.removeStale(3_600_000, 1)).toBe(1);
    expect(await storage.removeStale(3_600_000, 1)).toBe(1);
    expect(await storage.removeStale(3_600_000, 1)).toBe(0);
  });
});
