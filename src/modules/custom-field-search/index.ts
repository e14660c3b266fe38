import type { CoreModule } from '../module';
import { CustomFieldSearchValue } from './custom-field-search-value.entity';

export { customFieldFilter, prepareCustomFieldSearch } from './custom-field-search';
export { CustomFieldTotal, customFieldSums } from './custom-field-totals';

/** Custom field conditions (`range`, `matches`) and totals; the values they search are kept by triggers (see the entity). */
export const customFieldSearchModule: CoreModule = { name: 'custom-field-search', entities: [CustomFieldSearchValue], resolvers: [] };
