import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../src/app/orm';
import { defineResource } from '../../src/kit/fields';
import { Company } from '../../src/modules/companies/company.entity';
import { COMPANY_FIELDS } from '../../src/modules/companies/company.fields';
import { PERSON_FIELDS } from '../../src/modules/people/person.fields';
import { Issues } from '../../src/common/errors';
// Loading the services runs their write plans' check: each applies exactly its custom fields.
import '../../src/modules/companies/company.service';
import '../../src/modules/people/person.service';

/**
 * The field kit (src/kit/fields.ts): what a resource derives from its table, and the mistakes it
 * refuses when the module loads instead of letting a field go silently unwritten.
 */
describe('the field kit', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await openOrm({ clientUrl: process.env.TEST_DATABASE_URL as string });
  });
  afterAll(() => orm.close());

  const names = (type: string) => ({
    type,
    plural: 'probes',
    entity: Company,
    alias: 'c',
    defaultOrder: ['name'],
    createDoc: 'A new probe.',
    updateDoc: 'Changes to a probe.',
    filterDoc: 'Which probes.',
  });

  it('derives filter and sort SQL from the ORM metadata: columns by their real names, the case rule as stated', () => {
    const probe = defineResource(names('KitProbeA'), {
      name: { kind: 'text', write: 'auto', filter: true, sort: 'ci' },
      website: { kind: 'text', write: 'auto', filter: true, sort: 'cs' },
      ownerId: { kind: 'ref', write: 'custom', filter: true, sort: true },
    });
    const em = orm.em.fork();
    // Conditions on the record's own columns read no viewer.
    const scope = { em, viewer: {} as never };
    expect(probe.filterSql(scope, { website: { eq: 'x' } } as never)).toEqual({ sql: 'c.web = ?', params: ['x'] });
    expect(probe.filterSql(scope, { ownerId: { eq: 4 } } as never)).toEqual({ sql: 'c.owner_id = ?', params: [4] });
    expect(probe.orderKeys(em, [{ field: 'website', direction: 'DESC' }])).toEqual([{ sql: 'c.web', nullable: true, type: 'text', desc: true }]);
    expect(probe.orderKeys(em, null)).toEqual([{ sql: 'lower(c.name)', nullable: false, type: 'text', desc: false }]);
    expect(probe.OrderField).toEqual({ NAME: 'name', WEBSITE: 'website', OWNER_ID: 'owner_id' });
  });

  it('refuses a service that does not apply exactly the custom-written fields', () => {
    const probe = defineResource(names('KitProbeB'), {
      name: { kind: 'text', write: 'auto', sort: 'ci' },
      ownerId: { kind: 'ref', write: 'custom' },
      customFields: { kind: 'json', write: 'custom' },
    });
    expect(() => probe.writes(['ownerId'])).toThrow(/not applied: customFields/);
    expect(() => probe.writes(['ownerId', 'customFields', 'name' as never])).toThrow(/not custom: name/);
    expect(() => probe.writes(['ownerId', 'customFields'])).not.toThrow();
  });

  it('refuses a text sort without a case rule, and a default order on a field that is not sortable', () => {
    expect(() => defineResource(names('KitProbeC'), { name: { kind: 'text', sort: true } })).toThrow(/states its case rule/);
    const unsortable = defineResource({ ...names('KitProbeD'), defaultOrder: ['email'] }, { name: { kind: 'text', sort: 'ci' }, email: { kind: 'text' } });
    expect(() => unsortable.orderKeys(orm.em.fork(), null)).toThrow(/default order names email/);
  });

  it('refuses to deprecate a required input field (GraphQL deprecates optional ones only)', () => {
    expect(() =>
      defineResource(names('KitProbeF'), { name: { kind: 'text', write: 'auto', required: true, sort: 'ci', inputDeprecation: 'Use title.' } }),
    ).toThrow('KitProbeF.name: a required input field cannot be deprecated');
  });

  it('copies the auto fields only, create-only ones on create, with the column checks', () => {
    const em = orm.em.fork();
    const probe = defineResource(names('KitProbeE'), {
      name: { kind: 'text', write: 'auto', sort: 'ci' },
      fax: { kind: 'text', write: 'auto' },
      createdAt: { kind: 'datetime', write: 'create' },
      ownerId: { kind: 'ref', write: 'custom' },
    });
    const plan = probe.writes(['ownerId']);
    const record: Record<string, unknown> = {};
    const at = new Date('2020-01-01T00:00:00Z');
    plan.assign(em, record, { name: 'N', fax: 'x'.repeat(101), createdAt: at, ownerId: 3 } as never, new Issues(), true);
    expect(record).toEqual({ name: 'N', createdAt: at });
    const issues = new Issues();
    plan.assign(em, record, { fax: 'x'.repeat(101) } as never, issues, false);
    expect(() => issues.throwIfAny()).toThrow();
    const again: Record<string, unknown> = {};
    plan.assign(em, again, { createdAt: at } as never, new Issues(), false);
    expect(again).toEqual({});
  });

  it('people and companies state the case rule of every text sort', () => {
    for (const resource of [PERSON_FIELDS, COMPANY_FIELDS]) {
      for (const [name, def] of Object.entries(resource.table)) {
        if (def.sort && (def.kind === 'text' || def.kind === 'enum'))
          expect([name, typeof def.sort === 'string' ? def.sort : def.sort === true ? undefined : def.sort.case]).toEqual([
            name,
            expect.stringMatching(/^c[is]$/),
          ]);
      }
    }
  });
});
