import assert from "node:assert/strict";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { get, Agent } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { SteamEnv } from "../../src/steam-face/steam-env.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { runSkinmarket, startSkinmarket } from "../support/skinmarket-process.ts";

test("STEAM_FACE_PORT is refused without the sandbox, naming the variable", () => {
  assert.throws(
    () => loadConfig({ STEAM_FACE_PORT: "8443", SANDBOX: "off" }),
    (error: unknown) => error instanceof ConfigError && error.variable === "STEAM_FACE_PORT",
  );
  assert.throws(
    () => loadConfig({ STEAM_FACE_PORT: "https" }),
    (error: unknown) => error instanceof ConfigError && /got "https"/.test(error.message),
  );
  assert.equal(loadConfig({}).steamFacePort, undefined);
});

describeOrSkip("skinmarket steam env", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-steam-env-"));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test("without a port and without a running face it says which variable to set, exit 2", async () => {
    const text = await runSkinmarket(["steam", "env"], { env: { DATA_DIR: dataDir } });
    assert.equal(text.code, 2);
    assert.match(text.stderr, /STEAM_FACE_PORT: not given/);
    const json = await runSkinmarket(["steam", "env", "--json"], { env: { DATA_DIR: dataDir } });
    assert.equal(json.code, 2);
    assert.equal((JSON.parse(json.stderr) as { error: { code: string } }).error.code, "configuration");
  });

  test("prints the lines for the running server's face, which a client given them reaches", async () => {
    const { server } = await startSkinmarket([], { DATA_DIR: dataDir, PORT: "0", STEAM_FACE_PORT: "0" });
    try {
      const json = await runSkinmarket(["steam", "env", "--json"], { env: { DATA_DIR: dataDir } });
      assert.equal(json.code, 0, json.stderr);
      const env = JSON.parse(json.stdout) as SteamEnv;
      assert.ok(env.port > 0);
      assert.equal(env.env.NODE_EXTRA_CA_CERTS, join(dataDir, "steam-face", "ca.pem"));
      assert.equal(env.env.HTTPS_PROXY, `http://127.0.0.1:${env.port}`);
      assert.match(env.hostsLine, /^127\.0\.0\.1 api\.steampowered\.com steamcommunity\.com /);

      const text = await runSkinmarket(["steam", "env"], { env: { DATA_DIR: dataDir } });
      assert.equal(text.code, 0, text.stderr);
      for (const [name, value] of Object.entries(env.env))
        assert.ok(text.stdout.includes(`export ${name}=${value}\n`), name);

      const agent = new Agent({
        proxyEnv: { HTTPS_PROXY: env.env.HTTPS_PROXY },
        ca: await readFile(env.env.NODE_EXTRA_CA_CERTS, "utf8"),
      });
      const body = await new Promise<string>((resolve, reject) => {
        get("https://api.steampowered.com/ITwoFactorService/QueryTime/v1", { agent }, (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk));
          response.on("end", () => resolve(text));
        }).on("error", reject);
      });
      agent.destroy();
      const serverTime = Number(
        (JSON.parse(body) as { response: { server_time: string } }).response.server_time,
      );
      assert.ok(Math.abs(serverTime - Date.now() / 1000) < 60, body);
    } finally {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
    }
  });
});
