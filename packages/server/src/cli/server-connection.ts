import { join, resolve } from "node:path";
import type { Command } from "commander";
import { readAdminTokenFile, runningServer, SERVER_FILE } from "../server-file.ts";

/** Where a client command finds the server and its admin token, and where each came from. */
export interface ServerConnection {
  baseUrl: string;
  /** Says where the URL came from, for messages: `--url`, `SKINMARKET_URL`, a server file... */
  urlSource: string;
  token: string | undefined;
}

export const DEFAULT_URL = "http://127.0.0.1:8080";

/** The server could not be reached at the URL a client command resolved. */
export class ServerUnreachableError extends Error {
  readonly url: string;
  readonly urlSource: string;
  constructor(url: string, urlSource: string, cause: unknown) {
    super(
      `cannot reach the server at ${url} (from ${urlSource}): ${cause instanceof Error ? cause.message : String(cause)}; ` +
        "give another with --url or SKINMARKET_URL",
      { cause },
    );
    this.url = url;
    this.urlSource = urlSource;
  }
}

interface ClientOptions {
  url?: string;
  adminToken?: string;
  dataDir: string;
}

/**
 * The server is found as `serve` was configured: `--url`, then `SKINMARKET_URL`, then the running
 * server recorded in the data directory (`--data-dir`/`DATA_DIR`, as serve takes them), then the
 * `HOST`/`PORT` variables serve reads, then serve's defaults. The admin token: `--admin-token`,
 * `SANDBOX_ADMIN_TOKEN`, then `DATA_DIR/sandbox-admin-token`.
 */
export async function resolveConnection(command: Command): Promise<ServerConnection> {
  const options = command.optsWithGlobals<ClientOptions>();
  const dataDir = resolve(options.dataDir);
  const token = options.adminToken || (await readAdminTokenFile(dataDir));
  if (options.url) {
    const source = command.getOptionValueSourceWithGlobals("url") === "env" ? "SKINMARKET_URL" : "--url";
    return { baseUrl: options.url, urlSource: source, token };
  }
  const running = await runningServer(dataDir);
  const fromVariables = addressFromVariables();
  if (running) {
    if (fromVariables && new URL(fromVariables.baseUrl).port !== new URL(running.url).port) {
      // The order is kept (the data dir names one server for certain), but a PORT that differs
      // most likely meant another server: say which one is used and how to choose.
      process.stderr.write(
        `skinmarket: using the server recorded in ${join(dataDir, SERVER_FILE)} (${running.url}), ` +
          `not ${fromVariables.baseUrl} from ${fromVariables.names}; give --url (or --data-dir) to choose\n`,
      );
    }
    return {
      baseUrl: running.url,
      urlSource: `${join(dataDir, SERVER_FILE)}, written by the server with pid ${running.pid}`,
      token,
    };
  }
  if (fromVariables) return { baseUrl: fromVariables.baseUrl, urlSource: fromVariables.names, token };
  return {
    baseUrl: DEFAULT_URL,
    urlSource: `the default: no --url, SKINMARKET_URL, running server in ${dataDir}/${SERVER_FILE}, HOST or PORT`,
    token,
  };
}

/** `http://HOST:PORT` when either variable is set, as serve reads them. */
function addressFromVariables(): { baseUrl: string; names: string } | undefined {
  const port = process.env["PORT"]?.trim();
  const host = process.env["HOST"]?.trim();
  if (!port && !host) return undefined;
  return {
    baseUrl: `http://${connectableHost(host || "127.0.0.1")}:${port || "8080"}`,
    names: [host ? "HOST" : "", port ? "PORT" : ""].filter(Boolean).join(" and "),
  };
}

/** A server listening on every address is reached on the loopback one. */
function connectableHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}
