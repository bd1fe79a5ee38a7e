import { createServer } from "node:net";

/** The address `serve` was given cannot be listened on: taken, forbidden or not this machine's. */
export class PortUnavailableError extends Error {
  readonly host: string;
  readonly port: number;
  constructor(host: string, port: number, code: string) {
    const problem =
      code === "EADDRINUSE"
        ? "is already in use"
        : code === "EACCES"
          ? "needs privileges this user does not have"
          : "is not an address of this machine";
    super(`${host}:${port} ${problem}; choose another with --port or PORT (--host or HOST for the address)`);
    this.host = host;
    this.port = port;
  }
}

const LISTEN_FAILURES = new Set(["EADDRINUSE", "EACCES", "EADDRNOTAVAIL"]);

/** The error a failed listen becomes, when it is about the address. */
export function portFailure(error: unknown, host: string, port: number): PortUnavailableError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code && LISTEN_FAILURES.has(code) ? new PortUnavailableError(host, port, code) : undefined;
}

/**
 * Checked before any work (migrations, catalog, generated secrets), so that a busy port costs
 * nothing and says so in one line. The real listen can still lose a race for the port after this
 * check; its failure becomes the same error.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => reject(portFailure(error, host, port) ?? error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
