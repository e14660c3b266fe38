import type { CoreModule } from '../module';
import { CustomField } from './custom-field.entity';

/** Custom field definitions; their values live on each record. */
export const customFieldsModule: CoreModule = { name: 'custom-fields', entities: [CustomField], resolvers: [] };
