import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { after, before, describe, test } from "node:test";
import { checkPortFree, portFailure, PortUnavailableError } from "../../src/port-check.ts";

describe("port check", () => {
  let occupant: Server;
  let port: number;
  before(async () => {
    occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen({ port: 0, host: "127.0.0.1" }, resolve));
    const address = occupant.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  after(() => new Promise((resolve) => occupant.close(resolve)));

  test("a port another process listens on is refused, naming the address and --port/PORT", async () => {
    await assert.rejects(checkPortFree("127.0.0.1", port), (error: unknown) => {
      assert.ok(error instanceof PortUnavailableError);
      assert.equal(
        error.message,
        `127.0.0.1:${port} is already in use; choose another with --port or PORT (--host or HOST for the address)`,
      );
      return true;
    });
  });

  test("a free port passes, and leaves the port free for the real listen", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen({ port: 0, host: "127.0.0.1" }, resolve));
    const address = probe.address();
    const free = typeof address === "object" && address ? address.port : 0;
    await new Promise((resolve) => probe.close(resolve));
    await checkPortFree("127.0.0.1", free);
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once("error", reject);
      again.listen({ port: free, host: "127.0.0.1" }, resolve);
    });
    await new Promise((resolve) => again.close(resolve));
  });

  test("port 0 (the system picks) is not checked", async () => {
    await checkPortFree("127.0.0.1", 0);
  });

  test("a failed real listen becomes the same error when it is about the address, and only then", () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" });
    assert.ok(portFailure(inUse, "0.0.0.0", 8080) instanceof PortUnavailableError);
    const forbidden = portFailure(
      Object.assign(new Error("listen EACCES"), { code: "EACCES" }),
      "0.0.0.0",
      80,
    );
    assert.match(forbidden?.message ?? "", /^0\.0\.0\.0:80 needs privileges/);
    assert.equal(portFailure(new Error("catalog: broken"), "0.0.0.0", 8080), undefined);
  });
});
