import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000001Initial } from './20261122000001-initial';
import { Migration20261122000002ListOrderIndexes } from './20261122000002-list-order-indexes';
import { Migration20261122000003SortIndexes } from './20261122000003-sort-indexes';
import { Migration20261125000001AdminSurface } from './20261125000001-admin-surface';
import { Migration20261125000002Deals } from './20261125000002-deals';
import { Migration20261125000003DealOwnerStageIndex } from './20261125000003-deal-owner-stage-index';
import { Migration20261126000001CustomFields } from './20261126000001-custom-fields';
import { Migration20261126000002SavedSearches } from './20261126000002-saved-searches';
import { Migration20261126000003CustomFieldIndexes } from './20261126000003-custom-field-indexes';
import { Migration20261127000001Notes } from './20261127000001-notes';
import { Migration20261127000004AccountNotifications } from './20261127000004-account-notifications';
import { Migration20261128000001OutboxDelivery } from './20261128000001-outbox-delivery';
import { Migration20261129000001Documents } from './20261129000001-documents';
import { Migration20261129000002Jobs } from './20261129000002-jobs';
import { Migration20261130000001CalendarEntries } from './20261130000001-calendar-entries';
import { Migration20261130000002TodoTemplatePending } from './20261130000002-todo-template-pending';
import { Migration20261201000001ListItemColours } from './20261201000001-list-item-colours';
import { Migration20261202000002CloseDateTasks } from './20261202000002-close-date-tasks';

/** Applied in this order; a new migration is appended here (never edit an applied one). */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000001Initial', class: Migration20261122000001Initial },
  { name: 'Migration20261122000002ListOrderIndexes', class: Migration20261122000002ListOrderIndexes },
  { name: 'Migration20261122000003SortIndexes', class: Migration20261122000003SortIndexes },
  { name: 'Migration20261125000001AdminSurface', class: Migration20261125000001AdminSurface },
  { name: 'Migration20261125000002Deals', class: Migration20261125000002Deals },
  { name: 'Migration20261125000003DealOwnerStageIndex', class: Migration20261125000003DealOwnerStageIndex },
  { name: 'Migration20261126000001CustomFields', class: Migration20261126000001CustomFields },
  { name: 'Migration20261126000002SavedSearches', class: Migration20261126000002SavedSearches },
  { name: 'Migration20261126000003CustomFieldIndexes', class: Migration20261126000003CustomFieldIndexes },
  { name: 'Migration20261127000001Notes', class: Migration20261127000001Notes },
  { name: 'Migration20261127000004AccountNotifications', class: Migration20261127000004AccountNotifications },
  { name: 'Migration20261128000001OutboxDelivery', class: Migration20261128000001OutboxDelivery },
  { name: 'Migration20261129000001Documents', class: Migration20261129000001Documents },
  { name: 'Migration20261129000002Jobs', class: Migration20261129000002Jobs },
  { name: 'Migration20261130000001CalendarEntries', class: Migration20261130000001CalendarEntries },
  { name: 'Migration20261130000002TodoTemplatePending', class: Migration20261130000002TodoTemplatePending },
  { name: 'Migration20261201000001ListItemColours', class: Migration20261201000001ListItemColours },
  { name: 'Migration20261202000002CloseDateTasks', class: Migration20261202000002CloseDateTasks },
];
