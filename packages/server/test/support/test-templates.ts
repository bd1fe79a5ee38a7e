/**
 * The starting points `global-setup.ts` makes once per test run, in the environment variable
 * below (JSON): for PGlite, files holding dumped data directories; for PostgreSQL, template
 * databases. Each is a database migrated to the latest version, without and with the catalog.
 */
export interface TestTemplates {
  pglite?: { migrated: string; catalog: string };
  postgres?: { migrated: string; catalog: string };
  /**
   * A server's data directory whose embedded database is migrated and holds the catalog: what
   * `skinmarket serve` leaves in `DATA_DIR/pglite` after its first start (`seededDataDir`).
   */
  dataDir?: string;
}

export const TEST_TEMPLATES_VARIABLE = "SKINMARKET_TEST_TEMPLATES";

export function templates(): TestTemplates {
  const value = process.env[TEST_TEMPLATES_VARIABLE];
  return value ? (JSON.parse(value) as TestTemplates) : {};
}
