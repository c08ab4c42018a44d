import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Accounts } from './Migration20261121000000Accounts.js';

/** Applied in this order at start-up; add new migrations at the end. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121000000Accounts', class: Migration20261121000000Accounts },
];
