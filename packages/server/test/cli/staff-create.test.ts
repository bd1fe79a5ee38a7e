import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { runSkinmarket } from "../support/skinmarket-process.ts";

/**
 * `skinmarket staff create` (docs/design/back-office.md#the-first-admin): the first admin, on an
 * empty staff table only, sandbox on or off; its --help and --json follow the command's conventions.
 */
describeOrSkip("skinmarket staff create", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-staff-"));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test("--help names the options, the password's variable among them", async () => {
    const help = await runSkinmarket(["staff", "create", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--email <address>/);
    assert.match(help.stdout, /env:\s+STAFF_PASSWORD/);
    assert.match(help.stdout, /--json/);
  });

  test("makes the first admin once (exit 0), then refuses (exit 1); bad usage is exit 2", async () => {
    const first = await runSkinmarket(
      ["staff", "create", "--email", "admin@ops.example", "--json", "--data-dir", dataDir],
      { env: { STAFF_PASSWORD: "first admin password", SANDBOX: "off" } },
    );
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).staff, {
      staff_id: "1",
      email: "admin@ops.example",
      role: "admin",
    });
    const second = await runSkinmarket(
      [
        "staff",
        "create",
        "--email",
        "other@ops.example",
        "--password",
        "another password",
        "--data-dir",
        dataDir,
      ],
      { env: { SANDBOX: "off" } },
    );
    assert.equal(second.code, 1);
    assert.match(second.stderr, /staff accounts exist already/);
    const short = await runSkinmarket([
      "staff",
      "create",
      "--email",
      "x@ops.example",
      "--password",
      "short",
      "--json",
    ]);
    assert.equal(short.code, 2);
    assert.equal(JSON.parse(short.stderr).error.code, "usage");
  });
});
