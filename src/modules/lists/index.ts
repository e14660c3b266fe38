import type { CoreModule } from '../module';
import { LeadSourceCost } from './lead-source-cost.entity';
import { ListItem } from './list-item.entity';
import { ListItemFieldsResolver, ListItemResolver } from './list-item.resolver';

/** The account's admin lists that are a name in an order (lead statuses, sources and their costs, tags, categories, reasons, priorities). */
export const listsModule: CoreModule = { name: 'lists', entities: [ListItem, LeadSourceCost], resolvers: [ListItemResolver, ListItemFieldsResolver] };
