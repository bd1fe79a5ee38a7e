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
  /**
   * The folder of the run's saved reads (the catalog's goods as the market reads them), primed
   * from the catalog template: the test apps' first market read finds them there instead of
   * reading 37,000 goods (docs/design/architecture.md#the-catalogs-read-is-saved).
   */
  savedReads?: string;
}

export const TEST_TEMPLATES_VARIABLE = "SKINMARKET_TEST_TEMPLATES";

export function templates(): TestTemplates {
  const value = process.env[TEST_TEMPLATES_VARIABLE];
  return value ? (JSON.parse(value) as TestTemplates) : {};
}
