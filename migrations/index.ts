import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000001Initial } from './20261122000001-initial';
import { Migration20261122000002ListOrderIndexes } from './20261122000002-list-order-indexes';

/** Applied in this order; a new migration is appended here (never edit an applied one). */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000001Initial', class: Migration20261122000001Initial },
  { name: 'Migration20261122000002ListOrderIndexes', class: Migration20261122000002ListOrderIndexes },
];
