import type { CoreModule } from '../module';
import { ListItem } from './list-item.entity';
import { ListItemResolver } from './list-item.resolver';

/** The account's admin lists (lead statuses, sources, tags, note categories). */
export const listsModule: CoreModule = { name: 'lists', entities: [ListItem], resolvers: [ListItemResolver] };
