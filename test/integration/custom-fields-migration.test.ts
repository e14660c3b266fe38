import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';
import { openOrm } from '../../src/app/orm';

/**
 * Migration 20261126000001 on a database with custom fields of the old shape: `number` becomes
 * `numeric`, choices become entry rows (new ids), and every stored dropdown and multi-select value
 * in people, companies and deals is rewritten to the new ids, in SQL; what no choice had is dropped.
 */
describe('migration 20261126000001 (custom fields) on an existing database', () => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = '/postgres';
  const name = `crm_cf_mig_${process.pid}_${randomBytes(3).toString('hex')}`;
  let orm: MikroORM | null = null;

  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(url.toString(), name);
  });

  it('keeps every definition and value, with entries as rows and values rewritten to their ids', async () => {
    orm = await openOrm({ clientUrl: await ensureDatabase(url.toString(), name), poolMax: 2 });
    const migrator = orm.getMigrator();
    await migrator.up({ to: 'Migration20261125000003DealOwnerStageIndex' });
    const conn = orm.em.getConnection();
    const one = async <T>(sql: string, params: unknown[] = []) => (await conn.execute<T[]>(sql, params))[0];
    const { id: accountId } = await one<{ id: number }>(`insert into accounts (name, created_at) values ('Before', now()) returning id`);
    const field = async (resource: string, kind: string, fieldName: string, choices: unknown[] = []) =>
      (
        await one<{ id: number }>(
          `insert into custom_fields (account_id, resource, kind, name, choices, position) values (?, ?, ?, ?, ?::jsonb, 0) returning id`,
          [accountId, resource, kind, fieldName, JSON.stringify(choices)],
        )
      ).id;
    const tier = await field('person', 'dropdown', 'Tier', [
      { id: 1, name: 'Gold' },
      { id: 2, name: 'Silver' },
      { id: 3, name: 'gold' },
    ]);
    const tags = await field('person', 'multi_select', 'Tags', [
      { id: 1, name: 'A' },
      { id: 2, name: 'B' },
      { id: '3', name: '' },
    ]);
    const score = await field('person', 'number', 'Score');
    const twin = await field('person', 'text', 'tier');
    const dealTier = await field('deal', 'dropdown', 'Tier', [{ id: 5, name: 'Big' }]);
    const companyTags = await field('company', 'multi_select', 'Regions', [{ id: 1, name: 'EU' }]);
    const k = (id: number) => `custom_label_${id}`;

    const person = async (values: Record<string, unknown>) =>
      (
        await one<{ id: number }>(
          `insert into people (account_id, last_name, custom_fields, created_at, updated_at) values (?, 'P', ?::jsonb, now(), now()) returning id`,
          [accountId, JSON.stringify(values)],
        )
      ).id;
    const p1 = await person({ [k(tier)]: 2, [k(tags)]: [2, 1, 9], [k(score)]: 7.5, [k(twin)]: 'kept', custom_label_999999: 1 });
    const p2 = await person({ [k(tier)]: [1], [k(tags)]: 3 });
    const p3 = await person({ [k(tier)]: 9, [k(tags)]: [] });
    const p4 = await person({});
    const { id: d1 } = await one<{ id: number }>(
      `insert into deals (account_id, name, custom_fields, created_at, updated_at) values (?, 'D', ?::jsonb, now(), now()) returning id`,
      [accountId, JSON.stringify({ [k(dealTier)]: 5 })],
    );
    const { id: c1 } = await one<{ id: number }>(
      `insert into companies (account_id, name, custom_fields, created_at, updated_at) values (?, 'C', ?::jsonb, now(), now()) returning id`,
      [accountId, JSON.stringify({ [k(companyTags)]: [1, 1] })],
    );

    await migrator.up({ to: 'Migration20261126000001CustomFields' });

    const entries = await conn.execute<Array<{ id: number; custom_field_id: number; name: string; position: number }>>(
      'select id, custom_field_id, name, position from custom_field_entries where account_id = ? order by custom_field_id, position',
      [accountId],
    );
    const of = (fieldId: number) => entries.filter((e) => e.custom_field_id === fieldId);
    // Duplicate names (now unique per field, ignoring case) are told apart; a blank one gets a name.
    expect(of(tier).map((e) => [e.name, e.position])).toEqual([
      ['Gold', 0],
      ['Silver', 1],
      ['gold (3)', 2],
    ]);
    expect(of(tags).map((e) => e.name)).toEqual(['A', 'B', 'Entry 3']);
    const [gold, silver] = of(tier).map((e) => e.id);
    const [a, b, c] = of(tags).map((e) => e.id);
    const [big] = of(dealTier).map((e) => e.id);
    const [eu] = of(companyTags).map((e) => e.id);

    const values = async (table: string, id: number) =>
      (await one<{ custom_fields: Record<string, unknown> }>(`select custom_fields from ${table} where id = ?`, [id])).custom_fields;
    expect(await values('people', p1)).toStrictEqual({ [k(tier)]: silver, [k(tags)]: [b, a], [k(score)]: 7.5, [k(twin)]: 'kept', custom_label_999999: 1 });
    expect(await values('people', p2)).toStrictEqual({ [k(tier)]: gold, [k(tags)]: [c] });
    expect(await values('people', p3)).toStrictEqual({ [k(tags)]: [] });
    expect(await values('people', p4)).toStrictEqual({});
    expect(await values('deals', d1)).toStrictEqual({ [k(dealTier)]: big });
    expect(await values('companies', c1)).toStrictEqual({ [k(companyTags)]: [eu] });

    const fields = await conn.execute<Array<{ id: number; kind: string; name: string; is_required: boolean; group_id: number | null }>>(
      'select id, kind, name, is_required, group_id from custom_fields where account_id = ? order by id',
      [accountId],
    );
    expect(fields.map((f) => [f.id, f.kind, f.name, f.is_required, f.group_id])).toEqual([
      [tier, 'dropdown', 'Tier', false, null],
      [tags, 'multi_select', 'Tags', false, null],
      [score, 'numeric', 'Score', false, null],
      // The same name as Tier, ignoring case: told apart by its id.
      [twin, 'text', `tier (${twin})`, false, null],
      [dealTier, 'dropdown', 'Tier', false, null],
      [companyTags, 'multi_select', 'Regions', false, null],
    ]);
    // The new kinds pass the check; the old one does not.
    await conn.execute(
      `insert into custom_fields (account_id, resource, kind, name, created_at, updated_at) values (?, 'deal', 'currency', 'Budget', now(), now())`,
      [accountId],
    );
    await expect(
      conn.execute(`insert into custom_fields (account_id, resource, kind, name, created_at, updated_at) values (?, 'deal', 'number', 'Old', now(), now())`, [
        accountId,
      ]),
    ).rejects.toThrow(/check constraint/);
  }, 60_000);
});
