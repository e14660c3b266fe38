import type { CoreModule } from '../module';
import { ChangeFeedResolver } from './change.resolver';

export { pruneChanges } from './change-feed';

/** Every change of the tracked records, recorded by the database in the writing transaction (issue 24), and the feed that reads them. */
export const changesModule: CoreModule = {
  name: 'changes',
  entities: [],
  resolvers: [ChangeFeedResolver],
};
