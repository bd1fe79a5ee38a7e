import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { verifyWebhookSignature } from "@skinmarket/client";
import type { MarketplaceEvent } from "@skinmarket/contract";
import { FAKE_TOKEN, FakeStreamServer } from "../../../client/test/fake-stream-server.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import {
  freePort,
  runSkinmarket,
  seededDataDir,
  spawnSkinmarket,
  startSkinmarket,
} from "../support/skinmarket-process.ts";

/** A running `skinmarket listen`: its output so far, and a way to wait for a line. */
class Listener {
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  readonly child: ChildProcess;
  #waiters: Array<() => void> = [];
  constructor(child: ChildProcess) {
    this.child = child;
    child.stdout!.on("data", (chunk: Buffer) => this.#heard(() => (this.stdout += chunk)));
    child.stderr!.on("data", (chunk: Buffer) => this.#heard(() => (this.stderr += chunk)));
    this.exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  }
  /** Resolves once `pattern` matches the stream's output (the test's own timeout bounds the wait). */
  async waitFor(stream: "stdout" | "stderr", pattern: RegExp): Promise<RegExpExecArray> {
    for (;;) {
      const match = pattern.exec(this[stream]);
      if (match) return match;
      if (this.child.exitCode !== null) assert.fail(`listen exited ${this.child.exitCode}:\n${this.stderr}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
  #heard(append: () => void): void {
    append();
    for (const wake of this.#waiters.splice(0)) wake();
  }
}

/** `skinmarket listen` against a spawned server, over its event stream and in its polling mode. */
describeOrSkip("skinmarket listen", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  let server: ChildProcess;
  let url: string;
  let user: { user_id: string; token: string };
  const admin = (args: string[]) => runSkinmarket(["admin", "--url", url, "--data-dir", dataDir, ...args]);
  const deposit = async (amount: string) => {
    const done = await admin(["deposit", user.user_id, "balance", amount]);
    assert.equal(done.code, 0, done.stderr);
  };
  const listen = (args: string[], env: Record<string, string> = {}) =>
    new Listener(spawnSkinmarket(["listen", "--url", url, ...args], env));

  before(async () => {
    dataDir = await seededDataDir("skinmarket-listen-");
    ({ server, url } = await startSkinmarket(["--port", "0", "--data-dir", dataDir], {}));
    const created = await admin(["--json", "user", "create", "--nickname", "listener"]);
    assert.equal(created.code, 0, created.stderr);
    user = JSON.parse(created.stdout) as typeof user;
  });
  after(async () => {
    if (server.exitCode === null) server.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  test("happy: --poll --json prints each new event as one JSON line from now on, and Ctrl-C exits 0", async () => {
    await deposit("1"); // before listening: not shown
    const listener = listen(["--poll", "--json"], { SKINMARKET_TOKEN: user.token });
    await listener.waitFor(
      "stderr",
      /polling http:\/\/\S+\/api\/market\/developer\/events every second for account events/,
    );
    await deposit("2.5");
    const [line] = await listener.waitFor("stdout", /^.*\n/);
    const event = JSON.parse(line) as MarketplaceEvent<{ market_balance: string }>;
    assert.equal(event.type, "balance.changed");
    assert.match(event.id, /^\d+$/);
    assert.equal(event.data.market_balance, "3.50");
    listener.child.kill("SIGINT");
    assert.equal(await listener.exited, 0, listener.stderr);
    assert.match(listener.stderr, /stopped/);
    assert.equal(listener.stdout.trim().split("\n").length, 1, "one line per event");
  });

  test("happy: --after replays what came since, --types filters, and people read time, id, type and figures", async () => {
    const listener = listen(["--poll", "--after", "0", "--types", "balance.*", "--token", user.token]);
    const [lines] = await listener.waitFor("stdout", /^(.*\n){2}/);
    listener.child.kill("SIGINT");
    assert.equal(await listener.exited, 0, listener.stderr);
    const shown = lines.trim().split("\n");
    for (const [index, balance] of ["1.00", "3.50"].entries()) {
      assert.match(
        shown[index]!,
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\s+\\d+\\s+balance\\.changed\\s.*market_balance ${balance.replace(".", "\\.")}`,
        ),
      );
    }
  });

  test("happy: --forward-to POSTs each event signed as a webhook and prints the receiver's status", async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver: Server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk));
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const listener = listen(["--poll", "--token", user.token, "--forward-to", target]);
      const [, secret] = await listener.waitFor("stderr", /signed with (whsec_[A-Za-z0-9_-]{43})\n/);
      await listener.waitFor("stderr", /polling/);
      await deposit("1");
      const [, id] = await listener.waitFor("stderr", new RegExp(`(\\d+) -> ${target}: 202`));
      listener.child.kill("SIGINT");
      assert.equal(await listener.exited, 0, listener.stderr);
      assert.equal(received.length, 1);
      const delivery = received[0]!;
      assert.equal(delivery.headers["content-type"], "application/json");
      assert.equal(delivery.headers["skinmarket-event-id"], id);
      const event = verifyWebhookSignature({
        secret: secret!,
        header: delivery.headers["skinmarket-signature"] as string,
        body: delivery.body,
      });
      assert.equal(event.id, id);
      assert.equal(event.type, "balance.changed");
      assert.throws(() =>
        verifyWebhookSignature({
          secret: "whsec_another",
          header: delivery.headers["skinmarket-signature"] as string,
          body: delivery.body,
        }),
      );
    } finally {
      receiver.close();
    }
  });

  test("happy: over the stream (no --poll) it says where it listens and prints each event as the API serves it, from then on", async () => {
    await deposit("1"); // before listening: not shown
    const listener = listen(["--json", "--types", "balance.*"], { SKINMARKET_TOKEN: user.token });
    const [, after] = await listener.waitFor(
      "stderr",
      /listening on ws:\/\/\S+\/api\/market\/developer\/stream for account events of types balance\.\* \(after event (\d+)\)\n/,
    );
    await deposit("4");
    await deposit("0.5");
    const [lines] = await listener.waitFor("stdout", /^(?:.*\n){2}/);
    listener.child.kill("SIGINT");
    assert.equal(await listener.exited, 0, listener.stderr);
    assert.match(listener.stderr, /stopped/);
    assert.doesNotMatch(listener.stderr, /polling|connection lost/);
    const printed = lines
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as MarketplaceEvent);
    assert.equal(listener.stdout, lines, "one line per event, nothing else");
    // The same events, ids and records the polling operation answers for what came after the welcome.
    const polled = await fetch(`${url}/api/market/developer/events?after=${after}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    assert.equal(polled.status, 200);
    assert.deepEqual(printed, ((await polled.json()) as { items: MarketplaceEvent[] }).items);
    assert.deepEqual(
      printed.map((event) => event.type),
      ["balance.changed", "balance.changed"],
    );
    const [first, second] = printed.map((event) =>
      Number((event.data as { market_balance: string }).market_balance),
    );
    assert.equal(Math.round((second! - first!) * 100), 50, "the deposits in order: 4, then 0.5");
  });

  test("error: usage mistakes exit 2 and name the flag", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--poll"], /no API token: pass --token or set SKINMARKET_TOKEN/],
      [
        ["--token", user.token, "--types", "trade.*,trade.exploded"],
        /--types: "trade\.exploded" is not an event type/,
      ],
      [["--token", user.token, "--after", "latest"], /--after: "latest" is not an event id/],
      [["--token", user.token, "--channels", "account,everything"], /--channels: "everything"/],
      [["--token", user.token, "--poll", "--channels", "market"], /--poll reads account events only/],
      [
        ["--token", user.token, "--forward-to", "ftp://example.com"],
        /--forward-to: "ftp:\/\/example\.com" is not an http/,
      ],
      [
        ["--token", user.token, "--forward-to", "http://127.0.0.1:1/", "--forward-secret", "hunter2"],
        /--forward-secret/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runSkinmarket(["listen", "--url", url, ...args]);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });

  test("error: a server that cannot be reached exits 1 and says where it looked", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const run = await runSkinmarket(["listen", "--poll", "--url", nowhere, "--token", user.token]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`cannot reach the server at ${nowhere} \\(from --url\\)`));
  });

  test("security: a token the server refuses exits 1 with the API's code, in JSON under --json", async () => {
    const run = await runSkinmarket([
      "listen",
      "--poll",
      "--url",
      url,
      "--token",
      "smk_not_a_token",
      "--json",
    ]);
    assert.equal(run.code, 1, run.stderr);
    const { error } = JSON.parse(run.stderr) as { error: { code: string; status: number } };
    assert.equal(error.status, 401);
    assert.equal(run.stdout, "");
  });

  test("--help explains the flags with examples", async () => {
    const run = await runSkinmarket(["listen", "--help"]);
    assert.equal(run.code, 0, run.stderr);
    for (const flag of [
      "--token",
      "--types",
      "--channels",
      "--after",
      "--forward-to",
      "--forward-secret",
      "--json",
      "--poll",
    ]) {
      assert.match(run.stdout, new RegExp(flag));
    }
    assert.match(run.stdout, /Examples:\n\s+\$ skinmarket listen/);
    assert.match(run.stdout, /SKINMARKET_TOKEN/);
  });
});

/**
 * The stream mode against a fake of the stream's server side (client/test/fake-stream-server.ts):
 * moments a real server does not make on demand (a drop at a chosen event, close code 4001).
 */
describe("skinmarket listen over the stream (fake server)", () => {
  test("happy: says where it listens, prints events as they come, resumes after a drop, Ctrl-C exits 0", async () => {
    const fake = await FakeStreamServer.start();
    try {
      fake.publish("balance.changed", { market_balance: "5.00" });
      const listener = new Listener(
        spawnSkinmarket(["listen", "--url", fake.baseUrl, "--types", "balance.*,trade.*"], {
          SKINMARKET_TOKEN: FAKE_TOKEN,
        }),
      );
      await listener.waitFor(
        "stderr",
        /listening on ws:\/\/127\.0\.0\.1:\d+\/api\/market\/developer\/stream for account events of types balance\.\*,trade\.\* \(after event 101\)/,
      );
      assert.deepEqual(fake.subscriptions[0], {
        channels: ["account"],
        after: "101",
        types: ["balance.*", "trade.*"],
      });
      fake.publish("balance.changed", { market_balance: "7.50" });
      await listener.waitFor("stdout", /102\s+balance\.changed\s+market_balance 7\.50\n/);
      fake.drop();
      fake.publish("trade.created", { id: "T1", price: "7.00", state: 1 });
      await listener.waitFor("stderr", /connection lost .*; reconnecting in/);
      await listener.waitFor("stdout", /103\s+trade\.created\s+id T1\s+price 7\.00\s+state 1\n/);
      assert.equal(fake.subscriptions.at(-1)!.after, "102");
      listener.child.kill("SIGINT");
      assert.equal(await listener.exited, 0, listener.stderr);
      assert.equal(listener.stdout.trim().split("\n").length, 2, listener.stdout);
    } finally {
      await fake.close();
    }
  });

  test("security: close code 4001 (token revoked) exits 1 and says why", async () => {
    const fake = await FakeStreamServer.start();
    try {
      const listener = new Listener(
        spawnSkinmarket(["listen", "--url", fake.baseUrl, "--token", FAKE_TOKEN]),
      );
      await listener.waitFor("stderr", /listening on/);
      fake.closeAll(4001, "token revoked");
      assert.equal(await listener.exited, 1, listener.stderr);
      assert.match(listener.stderr, /the token was revoked or expired/);
    } finally {
      await fake.close();
    }
  });
});
