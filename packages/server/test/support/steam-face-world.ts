import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { Agent } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DomainContext } from "../../src/domain/context.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import {
  issueLeafCertificates,
  loadCertificateAuthority,
  type CertificateAuthority,
} from "../../src/steam-face/certificate-authority.ts";
import { buildSteamFaceApp } from "../../src/steam-face/steam-face-app.ts";
import { listenSteamFace } from "../../src/steam-face/steam-face-listener.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { silentLog, testPlatform } from "./test-context.ts";
import { openTestDatabase } from "./test-database.ts";

export interface SteamFaceWorld {
  ctx: DomainContext;
  database: DatabaseHandle;
  authority: CertificateAuthority;
  /** The face as an HTTP proxy, `http://127.0.0.1:<port>`. */
  proxyUrl: string;
  port: number;
  /** An https agent that reaches Steam's names through the face and trusts only its CA. */
  agent: Agent;
  close(): Promise<void>;
}

/**
 * The Steam face on a free port over a fresh test database, reached as a bot reaches it without
 * root: by Steam's names through the face's proxy, trusting the face's CA.
 */
export async function openSteamFaceWorld(
  options: {
    catalog?: boolean;
    /** The marketplace's own world (a test app's): the face serves it, and the app closes it. */
    on?: { ctx: DomainContext; database: DatabaseHandle };
  } = {},
): Promise<SteamFaceWorld> {
  const database = options.on?.database ?? (await openTestDatabase({ catalog: options.catalog ?? false }));
  const ctx: DomainContext = options.on?.ctx ?? {
    db: database.db,
    clock: new OffsetClock(),
    actor: { kind: "system" },
    log: silentLog,
    ...testPlatform(),
  };
  const dataDir = await mkdtemp(join(tmpdir(), "skinmarket-steam-face-"));
  const authority = await loadCertificateAuthority(dataDir);
  const app = await buildSteamFaceApp({ ctx, leaves: await issueLeafCertificates(authority) });
  const listener = await listenSteamFace(app, { host: "127.0.0.1", port: 0 });
  const proxyUrl = `http://127.0.0.1:${listener.port}`;
  const agent = new Agent({ proxyEnv: { HTTPS_PROXY: proxyUrl }, ca: authority.certPem });
  return {
    ctx,
    database,
    authority,
    proxyUrl,
    port: listener.port,
    agent,
    async close() {
      agent.destroy();
      await listener.close();
      await app.close();
      if (!options.on) await database.close();
    },
  };
}

/**
 * Runs a script in a child Node with the environment `skinmarket steam env` prints for proxy mode:
 * the way in for calls that take no proxy option (steam-totp's bare `https`).
 */
export function runWithSteamEnv(
  world: SteamFaceWorld,
  script: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: world.authority.certFile,
        NODE_USE_ENV_PROXY: "1",
        HTTPS_PROXY: world.proxyUrl,
      },
      stdio: "pipe",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
