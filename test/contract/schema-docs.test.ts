import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { schemaChanges } from '../../src/graphql/schema-changes';

/**
 * The schema as documentation: every type, field, argument and enum value is described, in words
 * for an API user; and the changelog names every breaking change between the schema snapshots.
 */
const ROOT = join(__dirname, '..', '..');
const committed = readFileSync(join(ROOT, 'schema.graphql'), 'utf8');

function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (!type.description?.trim()) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) if (!arg.description?.trim()) missing.push(`${type.name}.${field.name}(${arg.name}:)`);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) if (!value.description?.trim()) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe('the schema as documentation', () => {
  it('describes every type, field, argument and enum value', () => {
    expect(undescribed(buildSchema(committed))).toEqual([]);
  });

  it('speaks to API users: no wording about work in progress or internal references', () => {
    const descriptions = [...committed.matchAll(/"""([\s\S]*?)"""|"((?:[^"\\\n]|\\.)*)"\n/g)].map((m) => m[1] ?? m[2]);
    expect(descriptions.length).toBeGreaterThan(300);
    for (const text of descriptions)
      expect({ text, wip: /later issue|not yet implemented|until .* exist|§/i.test(text) || /\bTODO\b|FIXME/.test(text) }).toEqual({ text, wip: false });
  });

  it('uses one word per concept across types', () => {
    // `website` (never `web`), `postalCode` (never `zip`), `databaseId`/`…Id` for numbers.
    const schema = buildSchema(committed);
    for (const type of Object.values(schema.getTypeMap())) {
      if (!(isObjectType(type) || isInputObjectType(type))) continue;
      for (const name of Object.keys(type.getFields())) expect(`${type.name}.${name}`).not.toMatch(/\.(web|zip|ids|sort|simpleSearch)$/);
    }
  });
});

describe('the schema changelog', () => {
  const changelog = readFileSync(join(ROOT, 'SCHEMA_CHANGELOG.md'), 'utf8');
  const snapshots = readdirSync(join(ROOT, 'docs', 'schema'))
    .filter((f) => /^v\d+\.graphql$/.test(f))
    .sort((a, b) => parseInt(a.slice(1), 10) - parseInt(b.slice(1), 10));
  /** The text of the changelog section whose heading starts with `## <title>`. */
  const section = (title: string) => {
    const start = changelog.indexOf(`\n## ${title}`);
    if (start < 0) return '';
    const end = changelog.indexOf('\n## ', start + 4);
    return changelog.slice(start, end < 0 ? undefined : end);
  };
  const mentioned = (text: string, coordinate: string) => text.includes(`\`${coordinate}\``) || text.includes(`\`${coordinate.split('.').pop()}\``);

  it('keeps a snapshot per version, the newest equal to schema.graphql or followed by an Unreleased section naming its breaking changes', () => {
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    const newest = readFileSync(join(ROOT, 'docs', 'schema', snapshots[snapshots.length - 1]), 'utf8');
    const pending = schemaChanges(newest, committed).breaking;
    const unreleased = section('Unreleased');
    expect(pending.filter((c) => !mentioned(unreleased, c.coordinate)).map((c) => c.description)).toEqual([]);
  });

  it.each([[1, 2]])("v%i → v%i: each breaking change is named in its version's section", (from, to) => {
    const changes = schemaChanges(
      readFileSync(join(ROOT, 'docs', 'schema', `v${from}.graphql`), 'utf8'),
      readFileSync(join(ROOT, 'docs', 'schema', `v${to}.graphql`), 'utf8'),
    );
    expect(changes.breaking.length).toBeGreaterThan(0);
    const text = section(`v${to} `);
    expect(text).not.toBe('');
    expect(changes.breaking.filter((c) => !mentioned(text, c.coordinate)).map((c) => c.description)).toEqual([]);
  });
});
