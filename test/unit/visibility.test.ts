import type { Viewer } from '../../src/context/viewer';
import { Visibility } from '../../src/modules/users/user.entity';
import { canSee, possibleNotifyUserIds, seesEverything } from '../../src/modules/users/visibility';

const viewer = (isAdmin: boolean, visibility: Visibility, userId = 7): Viewer => ({ userId, accountId: 1, isAdmin, visibility }) as unknown as Viewer;

describe('visibility', () => {
  it('admins see everything whatever their visibility; others when their visibility is all', () => {
    expect(seesEverything(viewer(true, Visibility.OWN))).toBe(true);
    expect(seesEverything(viewer(true, Visibility.ALL))).toBe(true);
    expect(seesEverything(viewer(false, Visibility.ALL))).toBe(true);
    expect(seesEverything(viewer(false, Visibility.OWN))).toBe(false);
  });

  it('an own user sees what they own only (an unowned record is not theirs)', () => {
    const own = viewer(false, Visibility.OWN, 7);
    expect(canSee(own, 7)).toBe(true);
    expect(canSee(own, 8)).toBe(false);
    expect(canSee(own, null)).toBe(false);
    expect(canSee(own, undefined)).toBe(false);
    expect(canSee(viewer(true, Visibility.OWN), 8)).toBe(true);
    expect(canSee(viewer(true, Visibility.OWN), null)).toBe(true);
    expect(canSee(viewer(false, Visibility.ALL), 8)).toBe(true);
  });

  it('possible notify users: admins, all users and the owner, in the given order', () => {
    const users = [
      { id: 1, isAdmin: true, visibility: Visibility.OWN },
      { id: 2, isAdmin: false, visibility: Visibility.OWN },
      { id: 3, isAdmin: false, visibility: Visibility.ALL },
      { id: 4, isAdmin: false, visibility: Visibility.OWN },
    ];
    expect(possibleNotifyUserIds(users, 4)).toEqual([1, 3, 4]);
    expect(possibleNotifyUserIds(users, null)).toEqual([1, 3]);
    expect(possibleNotifyUserIds(users, 2)).toEqual([1, 2, 3]);
    expect(possibleNotifyUserIds([], 2)).toEqual([]);
  });
});
