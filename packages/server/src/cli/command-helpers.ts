import { MarketTransportError, SandboxClient } from "@skinmarket/client";
import { Option, type Command } from "commander";
import { resolveConnection, ServerUnreachableError } from "./server-connection.ts";

/** A mistake in how the command was called: reported with exit code 2. */
export class UsageError extends Error {}

export type AccessLevelChoice = "developer" | "enterprise" | "none";

/** The options every command that calls a running server's sandbox API takes. */
export function withServerOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--url <url>",
        "base URL of the server (default: the running server of the data dir, else http://HOST:PORT as serve reads them, else http://127.0.0.1:8080)",
      ).env("SKINMARKET_URL"),
    )
    .addOption(
      new Option("--admin-token <token>", "sandbox admin token (default: DATA_DIR/sandbox-admin-token)").env(
        "SANDBOX_ADMIN_TOKEN",
      ),
    )
    .addOption(
      new Option("--data-dir <dir>", "the server's data dir: its admin token and where it listens")
        .env("DATA_DIR")
        .default("./data"),
    )
    .option("--json", "print the answer as JSON");
}

export async function execute<Answer>(
  command: Command,
  action: (client: SandboxClient) => Promise<Answer>,
  describe: (answer: Answer) => string,
): Promise<void> {
  const options = command.optsWithGlobals<{ json?: boolean; dataDir: string }>();
  const { baseUrl, urlSource, token } = await resolveConnection(command);
  if (!token) {
    throw new UsageError(
      `no sandbox admin token: pass --admin-token, set SANDBOX_ADMIN_TOKEN, or run where ${options.dataDir}/sandbox-admin-token exists`,
    );
  }
  const answer = await action(new SandboxClient({ baseUrl, token })).catch((error: unknown) => {
    if (error instanceof MarketTransportError) throw new ServerUnreachableError(baseUrl, urlSource, error);
    throw error;
  });
  process.stdout.write(options.json ? `${JSON.stringify(answer, null, 2)}\n` : `${describe(answer)}\n`);
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

export function positiveInteger(flag: string, value: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`${flag} must be a whole number of at least ${min}`);
  return Number(value);
}

export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) throw new UsageError(`duration "${text}": use seconds or a number with s, m, h or d`);
  const seconds = Number(match[1]) * DURATION_UNITS[match[2] || "s"]!;
  if (seconds < 1) throw new UsageError("duration must be at least one second");
  return seconds;
}
