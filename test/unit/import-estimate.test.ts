import 'reflect-metadata';
import { Import } from '../../src/modules/imports/import.resolver';
import type { ImportRecord } from '../../src/modules/imports/import.service';

/** Import.estimatedSecondsLeft: each row is read (staged) then written (applied); a file still being read is sized by its bytes. */

const running = (row: Partial<ImportRecord>): Import =>
  new Import({
    state: 'running',
    started_at: new Date(Date.now() - 10_000),
    staging_done: false,
    staged_through: 0,
    applied_through: 0,
    rows_total: null,
    file_bytes: null,
    staged_bytes: '0',
    ...row,
  } as ImportRecord);

describe('Import.estimatedSecondsLeft', () => {
  it('is known while the file is read: the rows of the bytes not read yet are estimated from those read', () => {
    // 1,000 rows in the first tenth of the file: ~10,000 rows, 20,000 steps, 1,000 done in 10 s.
    const estimate = running({ staged_through: 1000, staged_bytes: '100000', file_bytes: '1000000' }).estimatedSecondsLeft!;
    expect(estimate).toBeGreaterThanOrEqual(189);
    expect(estimate).toBeLessThanOrEqual(191);
  });

  it('is null before the first checkpoint, or when the file size is unknown', () => {
    expect(running({ file_bytes: '1000000' }).estimatedSecondsLeft).toBeNull();
    expect(running({ staged_through: 10, staged_bytes: '100' }).estimatedSecondsLeft).toBeNull();
  });

  it('counts the rows written once the file is read', () => {
    // 10,000 rows read and 5,000 written in 10 s: 5,000 steps left at 1,500 a second.
    const estimate = running({ staging_done: true, rows_total: 10_000, staged_through: 10_000, applied_through: 5_000 }).estimatedSecondsLeft!;
    expect(estimate).toBeGreaterThanOrEqual(3);
    expect(estimate).toBeLessThanOrEqual(4);
  });

  it('is 0 when done and null when queued', () => {
    expect(running({ state: 'done' }).estimatedSecondsLeft).toBe(0);
    expect(running({ state: 'queued', started_at: null }).estimatedSecondsLeft).toBeNull();
  });
});
