import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000001Initial } from './20261122000001-initial';

/** Applied in this order; a new migration is appended here (never edit an applied one). */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000001Initial', class: Migration20261122000001Initial },
];
