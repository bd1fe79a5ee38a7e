import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { get as httpsGet, type Agent } from "node:https";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { after, before, describe, test } from "node:test";
import { loadCertificateAuthority } from "../../src/steam-face/certificate-authority.ts";
import { STEAM_HOSTS } from "../../src/steam-face/steam-hosts.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { openSteamFaceWorld, runWithSteamEnv, type SteamFaceWorld } from "../support/steam-face-world.ts";

function getText(url: string, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { agent }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    }).on("error", reject);
  });
}

describe("the Steam face's certificate authority", () => {
  test("is made once in the data dir: a second load and a racing load give the same CA", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "skinmarket-steam-ca-"));
    const [first, racing] = await Promise.all([
      loadCertificateAuthority(dataDir),
      loadCertificateAuthority(dataDir),
    ]);
    const again = await loadCertificateAuthority(dataDir);
    assert.equal(racing.certPem, first.certPem);
    assert.equal(again.certPem, first.certPem);
    assert.equal(await readFile(first.certFile, "utf8"), first.certPem);
    assert.equal(
      (await stat(join(dataDir, "steam-face", "ca-key.pem"))).mode & 0o077,
      0,
      "the key is private",
    );
    const bundle = await readFile(first.bundleFile, "utf8");
    assert.ok(bundle.endsWith(`${first.certPem.trim()}\n`), "the bundle ends with the face's CA");
    assert.ok(bundle.split("BEGIN CERTIFICATE").length > 10, "the bundle keeps the machine's roots");
  });
});

describe("the Steam face's listener", () => {
  let world: SteamFaceWorld;
  before(async () => {
    world = await openSteamFaceWorld();
  });
  after(() => world.close());

  test("answers each of Steam's names through its proxy, with a certificate the CA vouches for", async () => {
    for (const host of STEAM_HOSTS) {
      const answer = await getText(`https://${host}/no-such-page`, world.agent);
      assert.equal(answer.status, 404, host);
      assert.match(answer.body, /Steam face does not serve this path/, host);
    }
  });

  test("serves TLS on the same port by SNI, as a hosts-file entry reaches it", async () => {
    for (const host of STEAM_HOSTS) {
      const certificate = await new Promise<string>((resolve, reject) => {
        const socket = tlsConnect(
          { host: "127.0.0.1", port: world.port, servername: host, ca: world.authority.certPem },
          () => {
            resolve(socket.getPeerCertificate().subjectaltname ?? "");
            socket.end();
          },
        );
        socket.on("error", reject);
      });
      assert.equal(certificate, `DNS:${host}`);
    }
  });

  test("refuses to tunnel to any name that is not Steam's", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const connect = httpRequest({
        host: "127.0.0.1",
        port: world.port,
        method: "CONNECT",
        path: "example.com:443",
      });
      connect.on("connect", (response, socket) => {
        socket.destroy();
        resolve(response.statusCode ?? 0);
      });
      connect.on("error", reject);
      connect.end();
    });
    assert.equal(status, 403);
  });

  test("QueryTime gives the sandbox clock's time, which steam-totp reads through HTTPS_PROXY unchanged", async () => {
    const clock = world.ctx.clock as OffsetClock;
    clock.setOffset(clock.offsetMs + 3600_000);
    const run = await runWithSteamEnv(
      world,
      `import SteamTotp from "steam-totp";
       SteamTotp.getTimeOffset((error, offset) => {
         if (error) { console.error(error.message); process.exit(1); }
         console.log(JSON.stringify({ offset }));
       });`,
    );
    assert.equal(run.code, 0, run.stderr);
    const { offset } = JSON.parse(run.stdout) as { offset: number };
    assert.ok(Math.abs(offset - clock.offsetMs / 1000) <= 2, `offset ${offset}`);
  });
});
