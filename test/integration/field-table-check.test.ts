import 'reflect-metadata';
import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { checkFieldTables, defineResource } from '../../src/kit/fields';

/*
 * A field declared in a table but missing on its entity fails at boot, naming the field and the
 * file to change (issue 23 §3): before, a v3 create answered 200 and dropped the value, and a
 * filter or sort on it answered 500.
 */

@Entity({ tableName: 'gadgets' })
class Gadget {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @Property({ type: 'string' }) name!: string;
  @Property({ type: 'string', nullable: true }) shape: string | null = null;
}

/** Declared, never added to the entity: the new developer's omission. */
defineResource(
  { type: 'Gadget', plural: 'gadgets', entity: Gadget, alias: 'g', defaultOrder: ['name'], createDoc: 'c', updateDoc: 'u', filterDoc: 'f' },
  {
    name: { kind: 'text', write: 'auto', filter: true, sort: 'ci' },
    colour: { kind: 'text', write: 'auto' },
    weight: { kind: 'int', filter: true },
    height: { kind: 'int', sort: true },
    // Read-only and neither filtered nor sorted: a getter may serve it.
    label: { kind: 'text' },
    // No column, with its own expression: nothing to check.
    anyShape: { kind: 'text', property: null, filter: { sql: ['g.shape'] } },
    shape: { kind: 'text', write: 'auto', filter: true },
  },
);

describe('the field tables at boot', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await MikroORM.init({ clientUrl: process.env.TEST_DATABASE_URL, entities: [Gadget], connect: false, discovery: { warnWhenNoEntities: false } });
  });
  afterAll(() => orm.close(true));

  it('names every field the kit would copy, filter or sort that its entity lacks, and the entity file to change', () => {
    const metadata = orm.getMetadata();
    const problems = checkFieldTables((entity) => (metadata.has(entity.name) ? metadata.get(entity.name) : undefined));
    const file = 'test/integration/field-table-check.test.ts';
    const fix = 'declare it in ' + file + ' (with its migration), or give the field `property: null` and its own expression';
    expect(problems).toEqual([
      `Gadget.colour: Gadget has no property colour; ${fix}`,
      `Gadget.weight: Gadget has no property weight; ${fix}`,
      `Gadget.height: Gadget has no property height; ${fix}`,
    ]);
  });

  it('names an entity the ORM was not given', () => {
    expect(checkFieldTables(() => undefined)).toEqual(["Gadget: the entity Gadget is not registered with the ORM (add it to its module's entities)"]);
  });
});
