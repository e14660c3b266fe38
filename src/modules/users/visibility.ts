import type { Viewer } from '../../context/viewer';
import { Visibility } from './user.entity';

/** Admins and `all` users see every record of the account; an `own` user sees what they own. */
export function seesEverything(viewer: Viewer): boolean {
  return viewer.isAdmin || viewer.visibility === Visibility.ALL;
}

/** A record owned by `ownerId` is visible to the viewer. */
export function canSee(viewer: Viewer, ownerId: number | null | undefined): boolean {
  return seesEverything(viewer) || ownerId === viewer.userId;
}

/** Users who may be notified about a record: those who can see it (v3 possible_notify_user_ids). */
export function possibleNotifyUserIds(users: Iterable<{ id: number; isAdmin: boolean; visibility: Visibility }>, ownerId: number | null): number[] {
  const ids: number[] = [];
  for (const u of users) if (u.isAdmin || u.visibility === Visibility.ALL || u.id === ownerId) ids.push(u.id);
  return ids;
}
