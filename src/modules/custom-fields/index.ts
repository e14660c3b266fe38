import type { CoreModule } from '../module';
import { CustomField } from './custom-field.entity';
import { CustomFieldEntry } from './custom-field-entry.entity';
import { CustomFieldGroup } from './custom-field-group.entity';
import { CUSTOM_FIELD_ENTRY_RESOURCE, CUSTOM_FIELD_GROUP_RESOURCE, CUSTOM_FIELD_LABEL_RESOURCE, CustomFieldLabelFieldsResolver } from './custom-field.resolver';

/** Custom fields (v3 labels), their groups and dropdown entries; their values live on each record. */
export const customFieldsModule: CoreModule = {
  name: 'custom-fields',
  entities: [CustomField, CustomFieldGroup, CustomFieldEntry],
  resolvers: [CUSTOM_FIELD_LABEL_RESOURCE.resolver, CUSTOM_FIELD_GROUP_RESOURCE.resolver, CUSTOM_FIELD_ENTRY_RESOURCE.resolver, CustomFieldLabelFieldsResolver],
};
