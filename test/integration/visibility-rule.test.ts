import { Visibility } from '../../src/context/viewer';
import { ownedRecords, seesEverything, type Seer, type VisibilityTerm } from '../../src/context/visibility';
import { Where } from '../../src/db/sql';
import { startTestServer, type TestServer } from '../support/test-server';

interface Rec {
  id: number;
  owner: { id: number } | null;
  sharedWith: number[];
}

/** What deals will add: records shared with users (here an int[] column `shared`). */
const sharedTerm: VisibilityTerm<Rec> = {
  sql: (alias, userId) => ({ sql: `? = any(${alias}.shared)`, params: [userId] }),
  holds: (userId, record) => record.sharedWith.includes(userId),
};

const RECORDS: Rec[] = [
  { id: 1, owner: { id: 10 }, sharedWith: [] },
  { id: 2, owner: { id: 11 }, sharedWith: [10] },
  { id: 3, owner: null, sharedWith: [] },
  { id: 4, owner: { id: 11 }, sharedWith: [12, 13] },
];

const SEERS: Seer[] = [
  { userId: 10, isAdmin: false, visibility: Visibility.OWN },
  { userId: 11, isAdmin: false, visibility: Visibility.OWN },
  { userId: 12, isAdmin: false, visibility: Visibility.OWN },
  { userId: 13, isAdmin: true, visibility: Visibility.OWN },
  { userId: 14, isAdmin: false, visibility: Visibility.ALL },
];

/** The SQL condition and the in-memory predicate come from one definition: they must agree on every case. */
describe('the visibility rule', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  const values = RECORDS.map((r) => `(${r.id}, ${r.owner?.id ?? 'null'}::int, '{${r.sharedWith.join(',')}}'::int[])`).join(', ');

  async function visibleInSql(rule: ReturnType<typeof ownedRecords<Rec>>, seer: Seer): Promise<number[]> {
    const where = rule.restrict(new Where(), 'r', seer);
    const rows = await server.sql<{ id: number }>(
      `select r.id from (values ${values}) as r(id, owner_id, shared) where ${where.sql} order by r.id`,
      where.params,
    );
    return rows.map((row) => row.id);
  }

  it('owner rule: SQL and predicate agree; admins (even with own visibility) and all users see everything', async () => {
    const rule = ownedRecords<Rec>();
    const expected: Record<number, number[]> = { 10: [1], 11: [2, 4], 12: [], 13: [1, 2, 3, 4], 14: [1, 2, 3, 4] };
    for (const seer of SEERS) {
      const inMemory = RECORDS.filter((r) => rule.canSee(seer, r)).map((r) => r.id);
      expect({ user: seer.userId, ids: inMemory }).toEqual({ user: seer.userId, ids: expected[seer.userId] });
      expect({ user: seer.userId, ids: await visibleInSql(rule, seer) }).toEqual({ user: seer.userId, ids: inMemory });
    }
    expect(seesEverything(SEERS[3])).toBe(true);
  });

  it('an extra term (shared users) widens SQL, predicate and notify list together, callers unchanged', async () => {
    const rule = ownedRecords<Rec>(sharedTerm);
    const expected: Record<number, number[]> = { 10: [1, 2], 11: [2, 4], 12: [4], 13: [1, 2, 3, 4], 14: [1, 2, 3, 4] };
    for (const seer of SEERS) {
      const inMemory = RECORDS.filter((r) => rule.canSee(seer, r)).map((r) => r.id);
      expect({ user: seer.userId, ids: inMemory }).toEqual({ user: seer.userId, ids: expected[seer.userId] });
      expect({ user: seer.userId, ids: await visibleInSql(rule, seer) }).toEqual({ user: seer.userId, ids: inMemory });
    }
    const users = SEERS.map((s) => ({ id: s.userId, isAdmin: s.isAdmin, visibility: s.visibility }));
    expect(rule.usersWhoCanSee(users, RECORDS[3])).toEqual([11, 12, 13, 14]);
    expect(ownedRecords<Rec>().usersWhoCanSee(users, RECORDS[3])).toEqual([11, 13, 14]);
  });
});
