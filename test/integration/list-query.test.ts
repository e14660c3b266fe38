import { randomBytes } from 'node:crypto';
import {
  BigIntType,
  Collection,
  DecimalType,
  Embeddable,
  Embedded,
  Entity,
  Formula,
  ManyToMany,
  ManyToOne,
  OneToMany,
  OneToOne,
  PrimaryKey,
  Property,
} from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';
import { checkReadableEntities, findOneRow, hydrate, tableOf, unreadableProperties, UnreadableEntityError } from '../../src/db/list-query';
import { migrate, openOrm } from '../../src/app/orm';
import { Where } from '../../src/db/sql';
import { CustomField } from '../../src/modules/custom-fields/custom-field.entity';
import { Person, PersonType } from '../../src/modules/people/person.entity';
import { User } from '../../src/modules/users/user.entity';

/*
 * Test-only entities, discovered by a MikroORM of their own (never the app's entity list): one
 * with every kind the read path refuses, one with kinds it converts.
 */
@Embeddable()
class TestAddress {
  @Property({ type: 'string' }) street!: string;
}

@Entity({ tableName: 'test_gadgets' })
class TestGadget {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @OneToMany(() => TestWidget, (w) => w.gadget) widgets = new Collection<TestWidget>(this);
  @OneToOne(() => TestWidget, (w) => w.buddy, { nullable: true }) pal: TestWidget | null = null;
}

@Entity({ tableName: 'test_widgets' })
class TestWidget {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @Property({ type: 'string' }) name!: string;
  @ManyToOne(() => TestGadget, { nullable: true }) gadget: TestGadget | null = null;
  @OneToOne(() => TestGadget, { nullable: true, owner: true }) buddy: TestGadget | null = null;
  @Embedded(() => TestAddress) address!: TestAddress;
  @ManyToMany(() => TestGadget) gadgets = new Collection<TestGadget>(this);
  @Formula((alias) => `${alias}.id * 2`) twice?: number;
  /** Not a column: never read by anyone. */
  @Property({ persist: false }) scratch?: string;
}

/** Everything here is readable: mapped types go through their own convertToJSValue. */
@Entity({ tableName: 'test_prices' })
class TestPrice {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @Property({ type: new DecimalType('number'), precision: 10, scale: 2 }) amount!: number;
  @Property({ type: new BigIntType('bigint') }) cents!: bigint;
  @Property({ type: 'date', nullable: true }) day: string | null = null;
  @Property({ type: 'datetime', nullable: true }) at: Date | null = null;
  @Property({ type: 'json', nullable: true }) data: unknown = null;
  @ManyToOne(() => TestGadget, { nullable: true }) gadget: TestGadget | null = null;
  @OneToOne(() => TestGadget, { nullable: true, owner: true }) buddy: TestGadget | null = null;
  @ManyToOne(() => TestGadget, { nullable: true, mapToPk: true }) gadgetId: number | null = null;
}

describe('the read path refuses what it cannot read', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await MikroORM.init({ entities: [TestWidget, TestGadget, TestAddress, TestPrice], connect: false, dbName: 'list_query_unused' });
  });
  afterAll(() => orm.close());

  it('names every entity.property of a kind a row cannot fill, and nothing else', () => {
    expect(
      unreadableProperties(orm.getMetadata(), orm.em.getPlatform())
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual([
      'TestGadget.pal', // inverse one-to-one
      'TestGadget.widgets', // one-to-many
      'TestWidget.address', // embedded
      'TestWidget.gadgets', // many-to-many
      'TestWidget.twice', // formula (persist: false, but the ORM reads it)
    ]);
  });

  it('throws at the check with a message naming entity and property', () => {
    const check = () => checkReadableEntities(orm.getMetadata(), orm.em.getPlatform());
    expect(check).toThrow(UnreadableEntityError);
    expect(check).toThrow(/TestWidget\.address: an embedded value/);
    expect(check).toThrow(/TestWidget\.gadgets: a m:n collection/);
  });

  it('accepts them once listed as read elsewhere', () => {
    const elsewhere = {
      'TestWidget.address': 'test',
      'TestWidget.gadgets': 'test',
      'TestWidget.twice': 'test',
      'TestGadget.widgets': 'test',
      'TestGadget.pal': 'test',
    };
    expect(() => checkReadableEntities(orm.getMetadata(), orm.em.getPlatform(), elsewhere)).not.toThrow();
  });

  it('refuses to build a mapper or a column list for such an entity, even without the boot check', () => {
    const em = orm.em.fork();
    expect(() => hydrate(em, TestWidget, [{ id: 1, name: 'w' }])).toThrow(/TestWidget\.address/);
    expect(() => tableOf(em, TestWidget)).toThrow(/TestWidget\.gadgets/);
  });

  it('converts mapped types as the ORM does, and stubs owning references', () => {
    const em = orm.em.fork();
    const [price, empty] = hydrate(em, TestPrice, [
      {
        id: 1,
        amount: '12.50',
        cents: '9007199254740993',
        day: '2024-02-29',
        at: '2024-02-29 23:59:58.5+00',
        data: { a: [1] },
        gadget_id: 7,
        buddy_id: 8,
        gadget_id_id: 9,
      },
      { id: 2, amount: '0.00', cents: '0', day: null, at: null, data: 'a json string', gadget_id: null, buddy_id: null, gadget_id_id: null },
    ]);
    expect(price).toBeInstanceOf(TestPrice);
    expect(price.amount).toBe(12.5);
    expect(price.cents).toBe(9007199254740993n);
    expect(price.day).toBe('2024-02-29');
    expect(price.at).toEqual(new Date('2024-02-29T23:59:58.500Z'));
    expect(price.data).toEqual({ a: [1] });
    expect(price.gadget).toEqual({ id: 7 });
    expect(price.buddy).toEqual({ id: 8 });
    expect(price.gadgetId).toBe(9);
    expect(tableOf(em, TestPrice).columns).toEqual(['"id"', '"amount"', '"cents"', '"day"', '"at"', '"data"', '"gadget_id"', '"buddy_id"', '"gadget_id_id"']);
    // pg parses json and jsonb itself: a JSON string value stays a string, never parsed twice.
    expect(empty).toMatchObject({ amount: 0, cents: 0n, day: null, at: null, data: 'a json string', gadget: null, buddy: null, gadgetId: null });
  });
});

describe('the read path on the app entities', () => {
  const serverUrl = (() => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/postgres';
    return url.toString();
  })();
  const name = `crm_list_query_${process.pid}_${randomBytes(3).toString('hex')}`;
  let orm: Awaited<ReturnType<typeof openOrm>>;

  beforeAll(async () => {
    // openOrm runs checkReadableEntities: opening at all means every app entity passed.
    orm = await openOrm({ clientUrl: await ensureDatabase(serverUrl, name), poolMax: 2 });
    await migrate(orm);
  }, 60_000);
  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(serverUrl, name);
  });

  it('finds nothing unreadable in any app entity', () => {
    expect(unreadableProperties(orm.getMetadata(), orm.em.getPlatform())).toEqual([]);
    expect(Object.keys(orm.getMetadata().getAll())).toEqual(
      expect.arrayContaining(['Person', 'Company', 'User', 'CustomField', 'ListItem', 'OutboxMessage', 'Account', 'ApiApp']),
    );
  });

  it('maps dates, json, nulls and many-to-one stubs from real rows', async () => {
    const em = orm.em.fork();
    const one = async <T>(sql: string, params: unknown[] = []) => (await em.execute<T[]>(sql, params, 'all'))[0];
    const { id: accountId } = await one<{ id: number }>(`insert into accounts (name, created_at) values ('A', now()) returning id`);
    const { id: userId } = await one<{ id: number }>(
      `insert into users (account_id, email, api_key_hash, created_at, updated_at) values (?, 'u@a.test', 'h', now(), now()) returning id`,
      [accountId],
    );
    const { id: companyId } = await one<{ id: number }>(
      `insert into companies (account_id, name, created_at, updated_at) values (?, 'C', now(), now()) returning id`,
      [accountId],
    );
    const { id: personId } = await one<{ id: number }>(
      `insert into people (account_id, owner_id, company_id, type, last_name, tag_ids, custom_fields, converted_at, created_at, updated_at)
       values (?, ?, ?, 'Lead', 'Doe', '[3, 5]', '{"custom_label_1": "x", "custom_label_2": {"n": [1, null]}}', null, '2024-02-29 23:59:58.123+00', '2024-03-01T01:00:00+02:00') returning id`,
      [accountId, userId, companyId],
    );
    await em.execute(
      `insert into custom_fields (account_id, resource, kind, name, is_required, created_at, updated_at) values (?, 'person', 'dropdown', 'F', true, '2024-01-02 03:04:05+00', now())`,
      [accountId],
    );

    const [person] = hydrate(em, Person, await em.execute(`select * from people where id = ?`, [personId], 'all'));
    expect(person).toBeInstanceOf(Person);
    expect(person.createdAt).toEqual(new Date('2024-02-29T23:59:58.123Z'));
    expect(person.updatedAt).toEqual(new Date('2024-02-29T23:00:00Z'));
    expect(person.convertedAt).toBeNull();
    expect(person.firstName).toBeNull();
    expect(person.type).toBe(PersonType.LEAD);
    expect(person.tagIds).toEqual([3, 5]);
    expect(person.customFields).toEqual({ custom_label_1: 'x', custom_label_2: { n: [1, null] } });
    expect(person.account).toEqual({ id: accountId });
    expect(person.owner).toEqual({ id: userId });
    expect(person.company).toEqual({ id: companyId });
    expect(person.leadStatus).toBeNull();
    expect(person.companyId).toBe(companyId);
    expect(person.fullName).toBe('Doe');
    expect(person.unsubscribed).toBe(false);
    // A projection, not a managed entity.
    expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);

    // The same through tableOf's columns and findOneRow.
    const { table, columns } = tableOf(em, Person);
    const [viaColumns] = hydrate(em, Person, await em.execute(`select ${columns.join(', ')} from "${table}" where id = ?`, [personId], 'all'));
    expect({ ...viaColumns }).toEqual({ ...person });
    const found = await findOneRow(em, Person, '"people" p', 'p', personId, new Where().add('p.account_id = ?', accountId));
    expect({ ...found }).toEqual({ ...person });

    const [field] = hydrate(em, CustomField, await em.execute(`select * from custom_fields where account_id = ?`, [accountId], 'all'));
    expect(field).toMatchObject({ kind: 'dropdown', isRequired: true, group: null, createdAt: new Date('2024-01-02T03:04:05Z') });
    expect(field.entries).toBeUndefined(); // no column: the definitions' loader fills it
    expect(field.label).toBe(`custom_label_${field.id}`);

    // Hidden and lazy columns are read when selected by name, never by tableOf.
    const [user] = hydrate(em, User, await em.execute(`select ${tableOf(em, User).columns.join(', ')} from users where id = ?`, [userId], 'all'));
    expect(user.apiKeyHash).toBeUndefined();
    expect(user.account).toEqual({ id: accountId });
  });
});
