import type { CoreModule } from '../module';
import { SavedSearch } from './saved-search.entity';
import { SavedSearchResolver } from './saved-search.resolver';

/** Users' saved searches: v3 conditions and sort for a list, private or shared with the account. */
export const savedSearchesModule: CoreModule = {
  name: 'saved-searches',
  entities: [SavedSearch],
  resolvers: [SavedSearchResolver],
};
