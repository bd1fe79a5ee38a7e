import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { freePort, runSkinmarket, seededDataDir, startSkinmarket } from "../support/skinmarket-process.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";

/** `skinmarket admin` finds the server the way `serve` was configured, and says where it looked. */
describeOrSkip("a client command finds its server", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  let elsewhere: string;
  let server: ChildProcess;
  let port: number;
  let adminToken: string;

  before(async () => {
    dataDir = await seededDataDir("skinmarket-discovery-");
    // Commands run from a directory with no ./data, so only what a test gives them counts.
    elsewhere = await mkdtemp(join(tmpdir(), "skinmarket-elsewhere-"));
    port = await freePort();
    ({ server } = await startSkinmarket([], { PORT: String(port), DATA_DIR: dataDir }));
    adminToken = (await readFile(join(dataDir, "sandbox-admin-token"), "utf8")).trim();
  });

  after(async () => {
    if (server.exitCode === null) server.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  test("serve records where it listens in the data dir", async () => {
    const entry = JSON.parse(await readFile(join(dataDir, "server.json"), "utf8")) as Record<string, unknown>;
    assert.equal(entry["url"], `http://127.0.0.1:${port}`);
    assert.equal(entry["pid"], server.pid);
    assert.match(String(entry["started_at"]), /^\d{4}-\d\d-\d\dT/);
  });

  test("with only PORT, as serve was given it, admin reaches the server", async () => {
    const env = { PORT: String(port), SANDBOX_ADMIN_TOKEN: adminToken };
    const created = await runSkinmarket(["admin", "--json", "user", "create"], { env, cwd: elsewhere });
    assert.equal(created.code, 0, created.stderr);
    const user = JSON.parse(created.stdout) as { user_id: string };
    const balances = await runSkinmarket(["admin", "balances", user.user_id], { env, cwd: elsewhere });
    assert.equal(balances.code, 0, balances.stderr);
    assert.match(balances.stdout, /^balance 0\.00 {2}margin 0\.00/);
  });

  test("with only the data dir, admin finds the server's URL and admin token in it", async () => {
    const created = await runSkinmarket(["admin", "--data-dir", dataDir, "--json", "user", "create"], {
      cwd: elsewhere,
    });
    assert.equal(created.code, 0, created.stderr);
    const user = JSON.parse(created.stdout) as { user_id: string };
    const balances = await runSkinmarket(["admin", "balances", user.user_id], {
      env: { DATA_DIR: dataDir },
      cwd: elsewhere,
    });
    assert.equal(balances.code, 0, balances.stderr);
    assert.match(balances.stdout, /^balance 0\.00/);
    assert.equal(balances.stderr, "");

    // A PORT pointing elsewhere does not override the data dir's server, but is said to be unused.
    const other = await freePort();
    const mixed = await runSkinmarket(["admin", "balances", user.user_id], {
      env: { DATA_DIR: dataDir, PORT: String(other) },
      cwd: elsewhere,
    });
    assert.equal(mixed.code, 0, mixed.stderr);
    assert.match(
      mixed.stderr,
      new RegExp(
        `using the server recorded in .*server\\.json \\(http://127\\.0\\.0\\.1:${port}\\), not http://127\\.0\\.0\\.1:${other} from PORT; give --url`,
      ),
    );
  });

  test("an unreachable server is named with where its URL came from and how to give another", async () => {
    const closed = await freePort();
    const env = { SANDBOX_ADMIN_TOKEN: adminToken };
    const fromFlag = await runSkinmarket(["admin", "--url", `http://127.0.0.1:${closed}`, "balances", "1"], {
      env,
      cwd: elsewhere,
    });
    assert.equal(fromFlag.code, 1);
    assert.match(
      fromFlag.stderr,
      new RegExp(`cannot reach the server at http://127\\.0\\.0\\.1:${closed} \\(from --url\\)`),
    );
    assert.match(fromFlag.stderr, /give another with --url or SKINMARKET_URL/);
    assert.doesNotMatch(fromFlag.stderr, /\n\s+at /, "no stack trace");

    const fromPort = await runSkinmarket(["admin", "--json", "balances", "1"], {
      env: { ...env, PORT: String(closed) },
      cwd: elsewhere,
    });
    assert.equal(fromPort.code, 1);
    const { error } = JSON.parse(fromPort.stderr) as {
      error: { code: string; message: string; url: string };
    };
    assert.equal(error.code, "unreachable");
    assert.equal(error.url, `http://127.0.0.1:${closed}`);
    assert.match(error.message, /\(from PORT\)/);
  });

  test("SIGTERM removes the record, so that clients stop looking there", async () => {
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    server.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.equal(existsSync(join(dataDir, "server.json")), false);
  });
});

describeOrSkip("a busy port", { skip: EMBEDDED_ONLY }, () => {
  let occupant: Server;
  let port: number;
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-busy-"));
    occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen({ port: 0, host: "127.0.0.1" }, resolve));
    const address = occupant.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  after(async () => {
    await new Promise((resolve) => occupant.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  test("serve refuses in one line naming the address and --port, before any work", async () => {
    const result = await runSkinmarket(["serve", "--port", String(port), "--data-dir", dataDir]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `skinmarket: 127.0.0.1:${port} is already in use; choose another with --port or PORT (--host or HOST for the address)\n`,
    );
    assert.equal(result.stdout, "", "no log line, no generated admin token");
    assert.deepEqual(await readdir(dataDir), [], "nothing migrated or generated");
  });
});
