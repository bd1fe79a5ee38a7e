import { Command, Option } from "commander";
import type { Config } from "../config.ts";
import { UsageError } from "./command-helpers.ts";

/**
 * `skinmarket staff create`: the first admin of the back office, written straight into the
 * configured database (DATA_DIR's embedded one, which no running server may hold, or
 * DATABASE_URL), sandbox on or off. It works only while there is no staff account: every later one
 * is made by an admin in the back office, with a reason in the audit
 * (docs/design/back-office.md#the-first-admin). Exit codes: 0 made; 1 staff exist already or the
 * database failed; 2 bad usage.
 */
export function staffCommand(
  withConfig: (command: Command) => Command,
  configOf: (command: Command) => Config,
) {
  const staff = new Command("staff").description("the back office's staff accounts");
  staff.addCommand(
    withConfig(
      new Command("create")
        .description("make the first admin of the back office (only while no staff account exists)")
        .requiredOption("--email <address>", "the admin's email address, which they sign in with")
        .addOption(
          new Option("--password <password>", "the admin's password, 10 to 256 characters").env(
            "STAFF_PASSWORD",
          ),
        )
        .option("--json", "print a JSON report"),
    ).action(async function (this: Command) {
      const flags = this.opts<{ email: string; password?: string; json?: boolean }>();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(flags.email) || flags.email.length > 254)
        throw new UsageError(`--email must be an email address, got "${flags.email}"`);
      if (flags.password === undefined) throw new UsageError("--password (or STAFF_PASSWORD) is required");
      if (flags.password.length < 10 || flags.password.length > 256)
        throw new UsageError("--password must be 10 to 256 characters");
      const { createFirstAdminAtCommandLine } = await import("./staff-run.ts");
      await createFirstAdminAtCommandLine(configOf(this), {
        email: flags.email,
        password: flags.password,
        json: flags.json ?? false,
      });
    }),
  );
  return staff;
}
