import { MarketApiError, MarketStreamError } from "@skinmarket/client";
import { CommanderError } from "commander";
import { DemoBuildFailed } from "../build-demo-in-child.ts";
import { ConfigError } from "../config.ts";
import { PortUnavailableError } from "../port-check.ts";
import { DataDirLockedError } from "../storage/data-dir-lock.ts";
import { UsageError } from "./command-helpers.ts";
import { ServerUnreachableError } from "./server-connection.ts";

/**
 * Exit codes of `skinmarket`: 0 done; 1 the work failed (a server error, an API refusal, an
 * unreachable server, a port or data directory another process holds); 2 bad usage or
 * configuration.
 */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * An error as the command reports it: its code is one of these, or the API's own code for a
 * refusal (`Insufficient Balance`, `Unauthorized`...), which then carries the HTTP status.
 */
export interface ReportedError {
  code:
    "usage" | "configuration" | "unreachable" | "port_unavailable" | "data_dir_locked" | "internal" | string;
  message: string;
  status?: number;
  url?: string;
}

/** `--json` anywhere before `--` asks for JSON, errors included (parse errors come before options). */
export function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/** Commander's own message, `error: unknown command 'x'\n(Did you mean y?)`, as one sentence. */
export function commanderMessage(text: string): string {
  return text
    .replace(/^error: /, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

export function writeError(error: ReportedError, json: boolean): void {
  process.stderr.write(json ? `${JSON.stringify({ error })}\n` : `skinmarket: ${error.message}\n`);
}

/** Reports what went wrong (commander has already reported its own errors) and gives the exit code. */
export function reportError(error: unknown, json: boolean): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
  const [reported, exitCode] = describe(error);
  writeError(reported, json);
  return exitCode;
}

function describe(error: unknown): [ReportedError, number] {
  if (error instanceof UsageError) return [{ code: "usage", message: error.message }, EXIT_USAGE];
  if (error instanceof ConfigError)
    return [{ code: "configuration", message: `configuration: ${error.message}` }, EXIT_USAGE];
  if (error instanceof PortUnavailableError)
    return [{ code: "port_unavailable", message: error.message }, EXIT_FAILURE];
  if (error instanceof DataDirLockedError)
    return [{ code: "data_dir_locked", message: error.message }, EXIT_FAILURE];
  if (error instanceof DemoBuildFailed) return [{ code: "internal", message: error.message }, EXIT_FAILURE];
  if (error instanceof MarketApiError)
    return [{ code: error.code, message: `${error.code}: ${error.msg}`, status: error.status }, EXIT_FAILURE];
  if (error instanceof MarketStreamError) return [{ code: error.code, message: error.message }, EXIT_FAILURE];
  if (error instanceof ServerUnreachableError)
    return [{ code: "unreachable", message: error.message, url: error.url }, EXIT_FAILURE];
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return [{ code: "internal", message }, EXIT_FAILURE];
}
