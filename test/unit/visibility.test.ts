import { Visibility } from '../../src/context/viewer';
import { ownedRecords, seesEverything, type Seer } from '../../src/context/visibility';
import { Where } from '../../src/db/sql';

const seer = (isAdmin: boolean, visibility: Visibility, userId = 7): Seer => ({ userId, isAdmin, visibility });
const owned = (ownerId: number | null | undefined) => ({ owner: ownerId == null ? ownerId : { id: ownerId } });
const rule = ownedRecords<{ owner?: { id: number } | null }>();

describe('visibility', () => {
  it('admins see everything whatever their visibility; others when their visibility is all', () => {
    expect(seesEverything(seer(true, Visibility.OWN))).toBe(true);
    expect(seesEverything(seer(true, Visibility.ALL))).toBe(true);
    expect(seesEverything(seer(false, Visibility.ALL))).toBe(true);
    expect(seesEverything(seer(false, Visibility.OWN))).toBe(false);
  });

  it('an own user sees what they own only (an unowned record is not theirs)', () => {
    const own = seer(false, Visibility.OWN, 7);
    expect(rule.canSee(own, owned(7))).toBe(true);
    expect(rule.canSee(own, owned(8))).toBe(false);
    expect(rule.canSee(own, owned(null))).toBe(false);
    expect(rule.canSee(own, owned(undefined))).toBe(false);
    expect(rule.canSee(seer(true, Visibility.OWN), owned(8))).toBe(true);
    expect(rule.canSee(seer(true, Visibility.OWN), owned(null))).toBe(true);
    expect(rule.canSee(seer(false, Visibility.ALL), owned(8))).toBe(true);
  });

  it('restricts SQL for own users only, to the owner column', () => {
    const restricted = rule.restrict(new Where(), 'p', seer(false, Visibility.OWN, 7));
    expect({ sql: restricted.sql, params: restricted.params }).toEqual({ sql: '(p.owner_id = ?)', params: [7] });
    for (const everything of [seer(true, Visibility.OWN), seer(false, Visibility.ALL)]) {
      const open = rule.restrict(new Where(), 'p', everything);
      expect({ sql: open.sql, params: open.params }).toEqual({ sql: 'true', params: [] });
    }
  });

  it('possible notify users: admins, all users and the owner, in the given order', () => {
    const users = [
      { id: 1, isAdmin: true, visibility: Visibility.OWN },
      { id: 2, isAdmin: false, visibility: Visibility.OWN },
      { id: 3, isAdmin: false, visibility: Visibility.ALL },
      { id: 4, isAdmin: false, visibility: Visibility.OWN },
    ];
    expect(rule.usersWhoCanSee(users, owned(4))).toEqual([1, 3, 4]);
    expect(rule.usersWhoCanSee(users, owned(null))).toEqual([1, 3]);
    expect(rule.usersWhoCanSee(users, owned(2))).toEqual([1, 2, 3]);
    expect(rule.usersWhoCanSee([], owned(2))).toEqual([]);
  });
});
