/** vitest globalSetup shared by every package whose tests need PostgreSQL. */
import { setupTestDatabaseServer } from './testing.js';

export default async function setup(): Promise<() => Promise<void>> {
  return setupTestDatabaseServer();
}
