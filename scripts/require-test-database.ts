import pg from "pg";

/**
 * `npm run test:pg` runs the suites that reach a database against a real PostgreSQL server: the
 * server's, except `unit/` (no database) and `cli/` (the command on the embedded database only);
 * the contract's, the client's and the website's suites touch no database of their own and run in
 * `npm test` only (docs/design/architecture.md#what-ci-runs-where). Each test file creates its own
 * database there and drops it afterwards, so the URL needs a role that may create databases.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) {
  process.stderr.write(
    "test:pg: set TEST_DATABASE_URL to a PostgreSQL server, e.g.\n" +
      "  TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:pg\n",
  );
  process.exit(2);
}
const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
  const { rows } = await client.query<{ version: string; can_create: boolean }>(
    "SELECT current_setting('server_version') AS version, rolcreatedb OR rolsuper AS can_create FROM pg_roles WHERE rolname = current_user",
  );
  const row = rows[0];
  if (!row?.can_create) {
    process.stderr.write("test:pg: the role in TEST_DATABASE_URL may not create databases\n");
    process.exit(2);
  }
  process.stdout.write(`test:pg: PostgreSQL ${row.version}\n`);
} catch (error) {
  process.stderr.write(`test:pg: cannot reach TEST_DATABASE_URL: ${(error as Error).message}\n`);
  process.exit(2);
} finally {
  await client.end().catch(() => undefined);
}
