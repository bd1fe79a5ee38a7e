import type { Config } from "../config.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../domain/context.ts";
import { systemClock } from "../domain/clock.ts";
import { closePasswordHashing } from "../domain/password-hash.ts";
import { SecretBox } from "../domain/secret-box.ts";
import { createFirstAdmin } from "../domain/staff/create-staff.ts";
import { SandboxPlatform } from "../platform/sandbox/sandbox-platform.ts";
import { createLogger, openConfiguredDatabase } from "../server.ts";
import { EXIT_FAILURE, writeError } from "./report-error.ts";

/** Opens the configured database (migrating it), makes the first admin and reports. */
export async function createFirstAdminAtCommandLine(
  config: Config,
  input: { email: string; password: string; json: boolean },
): Promise<void> {
  const log = createLogger({ logLevel: input.json ? "silent" : "warn" });
  const database = await openConfiguredDatabase(config, log);
  try {
    const ctx: DomainContext = {
      db: database.db,
      clock: systemClock,
      actor: { kind: "system" },
      log,
      // The verb touches neither the platform nor sealed secrets; the context names them.
      platform: new SandboxPlatform(),
      secretBox: new SecretBox(Buffer.alloc(32)),
      rules: DEFAULT_MARKET_RULES,
    };
    const made = await createFirstAdmin(ctx, { email: input.email, password: input.password });
    if (!made.ok) {
      writeError({ code: made.failure.code, message: made.failure.message }, input.json);
      process.exitCode = EXIT_FAILURE;
      return;
    }
    const staff = { staff_id: String(made.value.staffId), email: made.value.email, role: made.value.role };
    process.stdout.write(
      input.json
        ? `${JSON.stringify({ database: database.description, staff })}\n`
        : `${database.description}: staff ${staff.staff_id} (${staff.email}) is the first admin; sign in at /ops\n`,
    );
  } finally {
    await database.close();
    await closePasswordHashing();
  }
}
