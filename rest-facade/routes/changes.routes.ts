import { changeResource } from '../resources/change';
import type { RouteDeclaration } from './route-spec';

/**
 * GET /changes.json (issue 24 §2; an addition to v3, in the envelope's style): the account's
 * changes of records the viewer may see, oldest first, `since` the `next_cursor` of the last read
 * (none: from the oldest kept), `per_page` 1 to 200 (100). A feed: its pagination says
 * `next_cursor` and `has_more` instead of pages, as a feed has no total. A cursor older than
 * what is kept answers 410.
 */
export const CHANGE_ROUTES: readonly RouteDeclaration[] = [
  {
    method: 'GET',
    path: '/changes',
    op: 'ChangeFeed',
    kind: 'feed',
    resource: changeResource,
    result: 'changes',
    errorShape: 'array',
    paging: { default: 100, max: 200 },
  },
];
