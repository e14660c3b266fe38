import 'reflect-metadata';
import { Import } from '../../src/modules/imports/import.resolver';
import type { ImportRecord } from '../../src/modules/imports/import.service';

/**
 * Import.estimatedSecondsLeft: each row is read (staged) then written (applied), each phase timed
 * from its own start (`pace_since`, with the rows it began from, `pace_from`); a file still being
 * read is sized by its bytes.
 */

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
    pace_since: null,
    pace_from: 0,
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

  it('once the file is read, follows the pace of writing alone', () => {
    // Read in 2 s, then 5,000 of 10,000 rows written in 8 s: 5,000 left at 625 a second, 8 s.
    // (One pace for both phases, 15,000 steps in 10 s, guessed 3 s.)
    const estimate = running({
      staging_done: true,
      rows_total: 10_000,
      staged_through: 10_000,
      applied_through: 5_000,
      pace_since: new Date(Date.now() - 8_000),
    }).estimatedSecondsLeft!;
    expect(estimate).toBeGreaterThanOrEqual(7);
    expect(estimate).toBeLessThanOrEqual(9);
  });

  it('times a resumed run from its own start and rows, not by the first one', () => {
    // Started an hour ago, killed, resumed 4 s ago at row 4,000 of 10,000 written; 2,000 more since.
    const estimate = running({
      started_at: new Date(Date.now() - 3_600_000),
      staging_done: true,
      rows_total: 10_000,
      staged_through: 10_000,
      applied_through: 6_000,
      pace_since: new Date(Date.now() - 4_000),
      pace_from: 4_000,
    }).estimatedSecondsLeft!;
    expect(estimate).toBeGreaterThanOrEqual(7);
    expect(estimate).toBeLessThanOrEqual(9);
  });

  it('is null when writing has just begun and no row of it is written yet', () => {
    expect(
      running({ staging_done: true, rows_total: 10_000, staged_through: 10_000, applied_through: 0, pace_since: new Date() }).estimatedSecondsLeft,
    ).toBeNull();
  });

  it('is 0 when done and null when queued', () => {
    expect(running({ state: 'done' }).estimatedSecondsLeft).toBe(0);
    expect(running({ state: 'queued', started_at: null }).estimatedSecondsLeft).toBeNull();
  });
});
