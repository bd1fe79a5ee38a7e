import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { DEBIAN_PYTHON, describeOrSkip, noDebianPythonPackages } from "../support/describe-or-skip.ts";
import { newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

const EXAMPLE = join(import.meta.dirname, "../../../../examples/steam-inventory.py");

/**
 * The README's Python bot (examples/steam-inventory.py): steampy's login calls and the inventory
 * read with requests, on Debian's python3, reaching the face as Steam by `HTTPS_PROXY` and
 * `REQUESTS_CA_BUNDLE` (what `skinmarket steam env` prints). Skipped where Debian's python3 lacks
 * its packages, except under CI=true, where the global setup refuses to run without them.
 */
describeOrSkip(
  "a Python bot logs in as steampy does and reads its inventory through the Steam face",
  { skip: noDebianPythonPackages() },
  () => {
    let world: SteamFaceWorld;
    let account: SteamCredentials;
    before(async () => {
      world = await openSteamFaceWorld({ catalog: true });
      const admin: DomainContext = { ...world.ctx, actor: { kind: "admin" } };
      account = await newSteamAccount(admin);
      const granted = await grantItems(admin, {
        platformid: account.platformid,
        marketHashName: "AK-47 | Redline (Field-Tested)",
        count: 2,
      });
      assert.ok(granted.ok);
    });
    after(() => world.close());

    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(DEBIAN_PYTHON, [EXAMPLE], {
          env: {
            PATH: process.env.PATH ?? "",
            HTTPS_PROXY: world.proxyUrl,
            REQUESTS_CA_BUNDLE: world.authority.bundleFile,
            STEAM_ACCOUNT_NAME: account.accountName,
            STEAM_PASSWORD: account.password,
            STEAM_SHARED_SECRET: account.sharedSecret,
            ...env,
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });

    test("the password and a Steam Guard code sign it in; the inventory lists its two items", async () => {
      const { code, stdout, stderr } = await run({});
      assert.equal(code, 0, stderr);
      const [signedIn, listed] = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown);
      assert.deepEqual(signedIn, { steamid: account.platformid, signed_in: true });
      const items = (listed as { items: Array<[string, string]> }).items;
      assert.equal(items.length, 2);
      for (const [assetid, name] of items) {
        assert.match(assetid, /^\d+$/);
        assert.equal(name, "AK-47 | Redline (Field-Tested)");
      }
    });

    test("a wrong password is refused as Steam refuses it (EResult 5), and the bot stops", async () => {
      const { code, stderr } = await run({ STEAM_PASSWORD: `${account.password}-wrong` });
      assert.notEqual(code, 0);
      assert.match(stderr, /EResult 5/);
    });
  },
);
