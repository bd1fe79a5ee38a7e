import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { seededDataDir } from "../support/skinmarket-process.ts";

const ROOT = join(import.meta.dirname, "../../../..");

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** `npm start` as the README runs it: stopping npm stops the server, cleanly. */
describeOrSkip("npm start", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  before(async () => {
    dataDir = await seededDataDir("skinmarket-npm-start-");
  });
  let serverPid: number | undefined;
  after(async () => {
    // A server that outlived npm (the failure this test is about) must not outlive the test.
    if (serverPid !== undefined) {
      try {
        process.kill(serverPid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  test("SIGTERM to npm reaches the server: it logs its shutdown, frees the port and exits", async () => {
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DEMO: "off",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout.on("data", (chunk: Buffer) => (output += chunk));
    npm.stderr.on("data", (chunk: Buffer) => (output += chunk));
    // "exit", not "close": a server left behind would hold the pipes open.
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const serving = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*skinmarket is serving/.exec(output);
        if (serving) {
          clearInterval(timer);
          resolve(serving[1]!);
        }
      }, 50);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`npm start ended before serving:\n${output}`));
      });
    });
    const port = Number(new URL(url).port);
    serverPid = Number(/"pid":(\d+)/.exec(output)?.[1]);
    assert.ok(await portAnswers(port), "the server answers");
    npm.kill("SIGTERM");
    await exited;
    // npm may end first; the server, no longer a grandchild behind a shell, ends on its own.
    for (let tries = 0; tries < 100 && (await portAnswers(port)); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(await portAnswers(port), false, `the port is free:\n${output}`);
    assert.match(output, /"signal":"SIGTERM"[^\n]*"msg":"shutting down"/);
  });
});
