import { buildSchema, getNamedType, isInputObjectType } from 'graphql';
import { createSchema } from '../../src/app/schema';
import { conditionTable, type ConditionVocabulary } from '../../src/kit/v3/vocabulary';
import { CALENDAR_ENTRY_CONDITIONS } from '../../src/modules/calendar/calendar-entry.conditions';
import { COMPANY_CONDITIONS } from '../../src/modules/companies/company.conditions';
import { DEAL_CONDITIONS } from '../../src/modules/deals/deal.conditions';
import { DOCUMENT_CONDITIONS } from '../../src/modules/documents/document.conditions';
import { NOTE_CONDITIONS } from '../../src/modules/notes/note.conditions';
import { PERSON_CONDITIONS } from '../../src/modules/people/person.conditions';

/** A list's v3 conditions: the spec's names, plus one derived for every other filter field, and no filter field out of reach. */
describe('v3 condition vocabularies', () => {
  const SDL = `
    input StringFilter { eq: String contains: String startsWith: String }
    input IdFilter { eq: Int in: [Int!] }
    input IntFilter { eq: Int gte: Int lte: Int }
    input DateTimeFilter { gte: String lte: String }
    input DateFilter { gte: String lte: String }
    input BooleanFilter { eq: Boolean }
    enum Mood { HAPPY SAD }
    input MoodFilter { eq: Mood in: [Mood!] }
    input OtherFilter { name: StringFilter }
    input ThingFilter {
      and: [ThingFilter!] or: [ThingFilter!] not: ThingFilter
      databaseId: IdFilter name: StringFilter shoeSize: IntFilter createdAt: DateTimeFilter bornOn: DateFilter
      tall: BooleanFilter mood: MoodFilter ownerId: IdFilter thingColour: StringFilter
      other: OtherFilter
    }
    type Query { things(filter: ThingFilter): Int }
  `;
  const schema = buildSchema(SDL);
  const vocabulary = (over: Partial<ConditionVocabulary> = {}): ConditionVocabulary => ({
    filter: 'ThingFilter',
    root: 'thing',
    text: 'like',
    source: 'src/modules/things/thing.conditions.ts',
    fixed: { thing_owner: { to: 'ownerId', kind: 'ids' }, other_name: { to: 'other.name', kind: 'like' } },
    ...over,
  });

  it('derives <root>_<field> for every filter field the spec does not name, by its operators', () => {
    expect(conditionTable(schema, vocabulary())).toEqual({
      thing_owner: { to: 'ownerId', kind: 'ids' },
      other_name: { to: 'other.name', kind: 'like' },
      thing_id: { to: 'databaseId', kind: 'ids' },
      thing_name: { to: 'name', kind: 'like' },
      thing_shoe_size: { to: 'shoeSize', kind: 'numberRange' },
      thing_created_at: { to: 'createdAt', kind: 'datetimeRange' },
      thing_born_on: { to: 'bornOn', kind: 'dateRange' },
      thing_tall: { to: 'tall', kind: 'boolean' },
      thing_mood: { to: 'mood', kind: 'enum', values: ['HAPPY', 'SAD'] },
      // Already prefixed by the root: not doubled.
      thing_colour: { to: 'thingColour', kind: 'like' },
    });
    expect(conditionTable(schema, vocabulary({ text: 'prefix' })).thing_name).toEqual({ to: 'name', kind: 'prefix' });
  });

  it('refuses a derived name the spec gives to another field, until the field is fed or said to be GraphQL only', () => {
    const fixed = { thing_name: { to: 'ownerId', kind: 'ids' }, other_name: { to: 'other.name', kind: 'like' } } as const;
    expect(() => conditionTable(schema, vocabulary({ fixed }))).toThrow('ThingFilter.name would be thing_name, which the spec gives to ownerId');
    const table = conditionTable(schema, vocabulary({ fixed, none: { name: 'thing_name (the spec) means the owner' } }));
    expect(table.thing_name).toEqual({ to: 'ownerId', kind: 'ids' });
  });

  it('refuses a filter field no condition feeds and none can be derived for, naming it and the file to change', () => {
    expect(() => conditionTable(schema, vocabulary({ fixed: {} }))).toThrow(
      'src/modules/things/thing.conditions.ts:\n  ThingFilter.other has no v3 condition: feed it from `fixed`, or list it under `none` with the reason',
    );
    expect(conditionTable(schema, vocabulary({ fixed: {}, none: { other: 'GraphQL only' } }))).not.toHaveProperty('other_name');
  });

  it('refuses a `none` entry that names a derivable field or no field at all', () => {
    expect(() => conditionTable(schema, vocabulary({ none: { name: 'no' } }))).toThrow('ThingFilter.name is listed under `none` but derives a condition');
    expect(() => conditionTable(schema, vocabulary({ none: { gone: 'no' } }))).toThrow('ThingFilter has no field gone, listed under `none`');
    expect(() => conditionTable(schema, vocabulary({ filter: 'NoFilter' }))).toThrow(
      'src/modules/things/thing.conditions.ts: the schema has no input NoFilter',
    );
  });

  it.each([DEAL_CONDITIONS, PERSON_CONDITIONS, COMPANY_CONDITIONS, NOTE_CONDITIONS, DOCUMENT_CONDITIONS, CALENDAR_ENTRY_CONDITIONS].map((v) => [v.filter, v]))(
    '%s: every filter field is read by a condition or said to be GraphQL only',
    (_name, conditions) => {
      const core = createSchema();
      const table = conditionTable(core, conditions);
      const filter = core.getType(conditions.filter);
      if (!isInputObjectType(filter)) throw new Error(`no ${conditions.filter}`);
      const fed = new Set(Object.values(table).map((spec) => spec.to.split('.')[0]));
      const unread = Object.keys(filter.getFields()).filter((f) => !['and', 'or', 'not'].includes(f) && !fed.has(f) && !(f in (conditions.none ?? {})));
      expect(unread).toEqual([]);
      // The spec's names stay as they are.
      for (const [name, spec] of Object.entries(conditions.fixed)) expect(table[name]).toBe(spec);
      for (const spec of Object.values(table)) expect(getNamedType(filter.getFields()[spec.to.split('.')[0]].type)).toBeDefined();
    },
  );
});
