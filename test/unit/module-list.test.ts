import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MODULES, modulesIn } from '../../src/modules';

/** A module is registered by adding its folder: the composition root is the folders of src/modules. */
describe('the module list', () => {
  it('is every folder of src/modules but the shared helpers, one module each', () => {
    const folders = readdirSync(join(__dirname, '../../src/modules'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'common')
      .map((d) => d.name);
    expect(MODULES).toHaveLength(folders.length);
    expect(new Set(MODULES.map((m) => m.name)).size).toBe(folders.length);
    expect(MODULES.flatMap((m) => m.entities).length).toBeGreaterThan(20);
  });

  const folder = (modules: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'modules-'));
    for (const [name, text] of Object.entries(modules)) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'index.js'), text);
    }
    return dir;
  };

  it("takes each folder's module, in the order of their names, leaving out common", () => {
    const dir = folder({
      widgets: "exports.widgetsModule = { name: 'widgets', entities: [], resolvers: [] };",
      apps: "exports.appsModule = { name: 'apps', entities: [], resolvers: [] }; exports.other = 1;",
      common: 'exports.helper = () => 1;',
    });
    expect(modulesIn(dir).map((m) => m.name)).toEqual(['apps', 'widgets']);
  });

  it('refuses a folder that exports no module, or several, naming it', () => {
    expect(() => modulesIn(folder({ widgets: 'exports.nothing = 1;' }))).toThrow('src/modules/widgets/index.ts must export exactly one CoreModule (found 0)');
    const two = "exports.a = { name: 'a', entities: [], resolvers: [] }; exports.b = { name: 'b', entities: [], resolvers: [] };";
    expect(() => modulesIn(folder({ gizmos: two }))).toThrow('src/modules/gizmos/index.ts must export exactly one CoreModule (found 2)');
  });
});
