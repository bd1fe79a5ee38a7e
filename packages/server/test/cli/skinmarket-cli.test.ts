import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { MAIN, runSkinmarket, type Run } from "../support/skinmarket-process.ts";

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runSkinmarket(args, { env });
}

/** The `skinmarket` command as an operator and a bot developer use it. */
describeOrSkip("skinmarket command", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  let server: ChildProcess;
  let baseUrl: string;
  let serverOutput = "";
  let serverErrors = "";

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-cli-"));
    server = spawn(
      process.execPath,
      [MAIN, "serve", "--port", "0", "--data-dir", dataDir, "--log-level", "info"],
      {
        env: { ...process.env, DATABASE_URL: "", SANDBOX_ADMIN_TOKEN: "", DEMO: "off" },
        stdio: "pipe",
      },
    );
    baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${serverOutput}`)), 120_000);
      server.stdout?.on("data", (chunk: Buffer) => {
        serverOutput += chunk;
        const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*skinmarket is serving/.exec(serverOutput);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      server.stderr?.on("data", (chunk: Buffer) => (serverErrors += chunk));
      server.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${serverOutput}`)));
    });
  });

  after(async () => {
    if (server.exitCode === null) server.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  test("first start loads the catalog and shows the generated sandbox admin token once, on stderr", async () => {
    assert.match(serverOutput, /catalog loaded into the database/);
    const token = (await readFile(join(dataDir, "sandbox-admin-token"), "utf8")).trim();
    assert.match(token, /^sma_/);
    assert.equal(serverErrors.split(token).length - 1, 1, "the token is shown exactly once");
    assert.ok(!serverOutput.includes(token), "the token stays out of the log");
    const ready = await fetch(`${baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    assert.ok(((await ready.json()) as { goods: number }).goods >= 20_000);
  });

  test("admin subcommands drive the sandbox, with --json for scripts", async () => {
    const common = ["--url", baseUrl, "--data-dir", dataDir];
    const created = await run(["admin", ...common, "--json", "user", "create", "--nickname", "cli-user"], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(created.code, 0, created.stderr);
    const user = JSON.parse(created.stdout) as { user_id: string; token: string; token_id: string };
    assert.match(user.token, /^smk_/);

    // The served app limits official operations per token; the sandbox forgets a token's counts.
    const limited = await fetch(`${baseUrl}/api/market/developer/balance`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    assert.equal(limited.headers.get("ratelimit-limit"), "60");
    assert.equal(limited.headers.get("ratelimit-remaining"), "59");
    const reset = await run(["admin", ...common, "token", "reset-limits", user.token_id], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(reset.code, 0, reset.stderr);
    assert.equal(reset.stdout.trim(), `token ${user.token_id}: rate limits reset`);

    const deposit = await run(["admin", ...common, "deposit", user.user_id, "balance", "42.5"], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(deposit.code, 0, deposit.stderr);
    assert.match(deposit.stdout, /balance 42\.50/);

    const withdraw = await run(["admin", ...common, "withdraw", user.user_id, "balance", "100"], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(withdraw.code, 1);
    assert.match(withdraw.stderr, /Insufficient Balance/);

    const clock = await run(["admin", ...common, "--json", "clock", "advance", "2h"], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(clock.code, 0, clock.stderr);
    assert.equal((JSON.parse(clock.stdout) as { offset_seconds: number }).offset_seconds, 7200);

    const liquidity = await run(["admin", ...common, "liquidity"], { SANDBOX_ADMIN_TOKEN: "" });
    assert.equal(liquidity.code, 0, liquidity.stderr);
    assert.match(liquidity.stdout, /^liquidity ranks computed at \S+: 0 goods traded in the last 30 days\n$/);

    const balance = await fetch(`${baseUrl}/api/market/developer/balance`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    assert.equal(((await balance.json()) as { market_balance: string }).market_balance, "42.50");
  });

  test("platform subcommands create an account, grant items, show its Steam secrets and list offers", async () => {
    const common = ["admin", "--url", baseUrl, "--data-dir", dataDir];
    const user = JSON.parse(
      (await run([...common, "--json", "user", "create"], { SANDBOX_ADMIN_TOKEN: "" })).stdout,
    ) as {
      user_id: string;
    };
    const created = await run([...common, "--json", "platform", "create", "--user", user.user_id], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(created.code, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { platformid: string };
    const granted = await run(
      [
        ...common,
        "grant",
        account.platformid,
        "--name",
        "AK-47 | Redline (Field-Tested)",
        "--count",
        "2",
        "--no-extras",
      ],
      { SANDBOX_ADMIN_TOKEN: "" },
    );
    assert.equal(granted.code, 0, granted.stderr);
    assert.equal(granted.stdout.trim().split("\n").length, 2);
    assert.match(granted.stdout, /^\d+ {2}goods \d+ {2}wear 0\.\d+/);
    const shown = await run([...common, "platform", "show", account.platformid], { SANDBOX_ADMIN_TOKEN: "" });
    assert.match(shown.stdout, new RegExp(`bound to user ${user.user_id}`));
    assert.match(shown.stdout, /2 items/);
    const steam = await run([...common, "platform", "steam", account.platformid], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(steam.code, 0, steam.stderr);
    assert.match(
      steam.stdout,
      /account name: sandbox\d+\npassword: \S+\nshared_secret: \S+=\nidentity_secret: \S+=/,
    );
    const steamJson = await run([...common, "--json", "platform", "steam", account.platformid], {
      SANDBOX_ADMIN_TOKEN: "",
    });
    assert.equal(JSON.parse(steamJson.stdout).shared_secret, /shared_secret: (\S+)/.exec(steam.stdout)?.[1]);
    const offers = await run([...common, "offers"], { SANDBOX_ADMIN_TOKEN: "" });
    assert.equal(offers.code, 0, offers.stderr);
    assert.equal(offers.stdout.trim(), "no offers");
    const bad = await run([...common, "grant", account.platformid], { SANDBOX_ADMIN_TOKEN: "" });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /give --goods-id or --name/);
  });

  test("platform down|up|fault switch the sandbox platform; trades rollback refuses an unknown trade", async () => {
    const common = ["admin", "--url", baseUrl, "--data-dir", dataDir];
    const env = { SANDBOX_ADMIN_TOKEN: "" };
    const down = await run([...common, "platform", "down", "--for", "30m"], env);
    assert.equal(down.code, 0, down.stderr);
    assert.match(down.stdout, /^the platform is down since \S+ until \S+\n$/);
    const fault = JSON.parse((await run([...common, "--json", "platform", "fault"], env)).stdout) as {
      down: boolean;
      since: number;
      until: number;
    };
    assert.equal(fault.down, true);
    assert.equal(fault.until - fault.since, 1800);
    const up = await run([...common, "platform", "up"], env);
    assert.equal(up.stdout, "the platform is up\n");
    const badDuration = await run([...common, "platform", "down", "--for", "soon"], env);
    assert.equal(badDuration.code, 2, badDuration.stderr);
    const unknown = await run([...common, "trades", "rollback", "999999999"], env);
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /trade 999999999 does not exist/);
  });

  test("buy-orders subcommands create, list and cancel a user's buy orders", async () => {
    const common = ["admin", "--url", baseUrl, "--data-dir", dataDir];
    const env = { SANDBOX_ADMIN_TOKEN: "" };
    const user = JSON.parse((await run([...common, "--json", "user", "create"], env)).stdout) as {
      user_id: string;
    };
    const own = JSON.parse(
      (await run([...common, "--json", "platform", "create", "--user", user.user_id], env)).stdout,
    ) as { trade_url: string };
    await run([...common, "deposit", user.user_id, "balance", "50"], env);
    const account = JSON.parse((await run([...common, "--json", "platform", "create"], env)).stdout) as {
      platformid: string;
    };
    const granted = await run(
      [...common, "grant", account.platformid, "--name", "AK-47 | Redline (Field-Tested)"],
      env,
    );
    const goodsId = /goods (\d+)/.exec(granted.stdout)?.[1];
    assert.ok(goodsId, granted.stdout);
    const created = await run(
      [
        ...common,
        "buy-orders",
        "create",
        user.user_id,
        "--goods-id",
        goodsId,
        "--price",
        "12.5",
        "--num",
        "2",
        "--specific",
        "paintwear=0.15,0.2",
        "--trade-url",
        own.trade_url,
      ],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(
      created.stdout,
      /^buy order (\d+): goods \d+ at 12\.50 x 2 \(0 delivered, 0 in flight\) progressing paintwear=0\.15,0\.2/,
    );
    const id = /^buy order (\d+)/.exec(created.stdout)![1]!;
    const listed = await run(
      [...common, "--json", "buy-orders", "list", user.user_id, "--state", "progressing"],
      env,
    );
    assert.equal((JSON.parse(listed.stdout) as { items: Array<{ id: string }> }).items[0]?.id, id);
    const cancelled = await run([...common, "buy-orders", "cancel", user.user_id, id], env);
    assert.equal(cancelled.stdout.trim(), `${id}: OK`);
    const tooMuch = await run(
      [
        ...common,
        "buy-orders",
        "create",
        user.user_id,
        "--goods-id",
        goodsId,
        "--price",
        "30",
        "--num",
        "2",
        "--trade-url",
        own.trade_url,
      ],
      env,
    );
    assert.equal(tooMuch.code, 1);
    assert.match(tooMuch.stderr, /Insufficient Balance/);
    const bad = await run(
      [
        ...common,
        "buy-orders",
        "create",
        user.user_id,
        "--goods-id",
        goodsId,
        "--price",
        "1",
        "--specific",
        "wear=1",
      ],
      env,
    );
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--specific "wear=1"/);
  });

  test("a wrong admin token is refused with exit code 1", async () => {
    const refused = await run([
      "admin",
      "--url",
      baseUrl,
      "--admin-token",
      "sma_wrong-token-000000000",
      "clock",
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Unauthorized/);
  });

  test("admin user list and show tell who exists and what each holds", async () => {
    const common = ["admin", "--url", baseUrl, "--data-dir", dataDir];
    const env = { SANDBOX_ADMIN_TOKEN: "" };
    const user = JSON.parse(
      (await run([...common, "--json", "user", "create", "--nickname", "listed-user"], env)).stdout,
    ) as { user_id: string; token_id: string };
    await run([...common, "deposit", user.user_id, "balance", "7"], env);
    const listed = await run([...common, "--json", "user", "list", "--page-size", "500"], env);
    assert.equal(listed.code, 0, listed.stderr);
    const page = JSON.parse(listed.stdout) as { items: Array<{ user_id: string; nickname: string }> };
    assert.ok(page.items.some((row) => row.user_id === user.user_id && row.nickname === "listed-user"));
    const human = await run([...common, "user", "list", "--page-size", "1"], env);
    assert.match(
      human.stdout,
      /^user \d+ {2}\S+ {2}(developer|enterprise|none)\npage 1 of \d+, \d+ users\n$/,
    );
    const shown = await run([...common, "user", "show", user.user_id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^user ${user.user_id} \\(listed-user, developer\\)`));
    assert.match(shown.stdout, /balance 7\.00 {2}margin 0\.00/);
    assert.match(shown.stdout, new RegExp(`token ${user.token_id}: smk_\\S+\\.\\.\\., last used never`));
  });

  test("under --json, an API refusal is a JSON error with the API's code and status", async () => {
    const refused = await run(
      ["admin", "--url", baseUrl, "--data-dir", dataDir, "--json", "user", "show", "999999"],
      { SANDBOX_ADMIN_TOKEN: "" },
    );
    assert.equal(refused.code, 1);
    assert.deepEqual(JSON.parse(refused.stderr), {
      error: { code: "Not Found", message: "Not Found: user 999999 does not exist", status: 404 },
    });
  });

  test("SIGTERM stops the server cleanly with exit code 0", async () => {
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    server.kill("SIGTERM");
    assert.equal(await exited, 0);
    // The price snapshot was built at start, before "serving" was said, so that no request after
    // that line waits for it.
    assert.match(serverOutput, /"goods":\d+,"ms":\d+,"msg":"price snapshot built"/);
    assert.ok(
      serverOutput.indexOf('"msg":"price snapshot built"') <
        serverOutput.indexOf('"msg":"skinmarket is serving"'),
      "the snapshot is built before serving is announced",
    );
    assert.match(serverOutput, /stopped cleanly/);
  });

  test("migrate applies the schema to a data directory and reports as JSON", async () => {
    const result = await run(["migrate", "--data-dir", dataDir, "--json"], { DATABASE_URL: "" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      database: `PGlite in ${join(dataDir, "pglite")}`,
      migrated: true,
      applied: [],
    });
  });
});

describeOrSkip("skinmarket usage", { skip: EMBEDDED_ONLY }, () => {
  test("--help lists the commands and exits 0", async () => {
    const result = await run(["--help"]);
    assert.equal(result.code, 0);
    for (const command of ["serve", "migrate", "admin"]) assert.match(result.stdout, new RegExp(command));
    const admin = await run(["admin", "--help"]);
    assert.equal(admin.code, 0);
    assert.match(admin.stdout, /--json/);
  });

  test("invalid configuration exits 2 naming the variable", async () => {
    const result = await run(["serve", "--port", "not-a-port"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /PORT: must be a whole number/);
    const fromEnv = await run(["serve"], { LOG_LEVEL: "chatty" });
    assert.equal(fromEnv.code, 2);
    assert.match(fromEnv.stderr, /LOG_LEVEL/);
  });

  test("an unknown command, a missing argument or a bad amount exits 2", async () => {
    const unknown = await run(["dance"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'dance'/);
    const missing = await run(["admin", "balances"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required argument 'user_id'/);
    const signed = await run([
      "admin",
      "--admin-token",
      "sma_x-000000000000000",
      "deposit",
      "1001",
      "balance",
      "-5",
    ]);
    assert.equal(signed.code, 2);
    assert.match(signed.stderr, /give yuan as a positive number/);
    assert.equal((await run(["admin", "reset"])).code, 2);
  });
});
