import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS, migrationsIn } from '../../migrations';

/** A migration is registered by adding its file: the list is the folder, in order, and nothing in it is skipped silently. */
describe('the migration list', () => {
  it('is every migration file of the folder, in the order of their names', () => {
    const files = readdirSync(join(__dirname, '../../migrations'))
      .filter((f) => /^\d{14}-/.test(f))
      .sort();
    expect(MIGRATIONS).toHaveLength(files.length);
    expect(MIGRATIONS.map((m) => m.name.slice('Migration'.length, 'Migration'.length + 14))).toEqual(files.map((f) => f.slice(0, 14)));
    expect(MIGRATIONS[0].name).toBe('Migration20261122000001Initial');
  });

  const folder = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };

  it('refuses a file in the folder that is not named as a migration, naming it', () => {
    const dir = folder({ 'add-column.js': 'exports.MigrationAddColumn = class {};' });
    expect(() => migrationsIn(dir)).toThrow('migrations/add-column.js: not a migration file name');
  });

  it('refuses a migration whose class does not carry its timestamp, naming the file', () => {
    const dir = folder({ '20990101000001-add-column.js': 'exports.Migration20990101000002AddColumn = class {};' });
    expect(() => migrationsIn(dir)).toThrow('migrations/20990101000001-add-column.js: must export exactly one class named Migration20990101000001<WhatItDoes>');
  });

  it('passes over support/, the helpers migrations share', () => {
    const dir = folder({ '20990101000001-a.js': 'exports.Migration20990101000001A = class {};' });
    mkdirSync(join(dir, 'support'));
    writeFileSync(join(dir, 'support', 'list-kinds.js'), 'exports.addListKinds = () => {};');
    expect(migrationsIn(dir).map((m) => m.name)).toEqual(['Migration20990101000001A']);
  });

  it('takes the class a well-named file exports', () => {
    const dir = folder({
      '20990101000002-b.js': 'exports.Migration20990101000002B = class {};',
      '20990101000001-a.js': 'exports.Migration20990101000001A = class {};',
    });
    expect(migrationsIn(dir).map((m) => m.name)).toEqual(['Migration20990101000001A', 'Migration20990101000002B']);
  });
});
