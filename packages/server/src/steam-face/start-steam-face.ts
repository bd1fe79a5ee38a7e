import { Agent } from "node:https";
import type { FastifyBaseLogger } from "fastify";
import type { DomainContext } from "../domain/context.ts";
import { issueLeafCertificates, loadCertificateAuthority } from "./certificate-authority.ts";
import { buildSteamFaceApp } from "./steam-face-app.ts";
import { listenSteamFace } from "./steam-face-listener.ts";

export interface RunningSteamFace {
  port: number;
  /** The CA certificate a bot trusts (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  /** Reaches Steam's names through the face and trusts its CA: how this process itself asks Steam. */
  agent: Agent;
  close(): Promise<void>;
}

/** The CA (made once in `dataDir`), fresh leaf certificates, the app and its listener. */
export async function startSteamFace(options: {
  ctx: DomainContext;
  dataDir: string;
  host: string;
  port: number;
  logger?: FastifyBaseLogger;
}): Promise<RunningSteamFace> {
  const authority = await loadCertificateAuthority(options.dataDir);
  const app = await buildSteamFaceApp({
    ctx: options.ctx,
    leaves: await issueLeafCertificates(authority),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  try {
    const listener = await listenSteamFace(app, { host: options.host, port: options.port });
    const address = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
    const agent = new Agent({
      proxyEnv: {
        HTTPS_PROXY: `http://${address.includes(":") ? `[${address}]` : address}:${listener.port}`,
      },
      ca: authority.certPem,
    });
    return {
      port: listener.port,
      caFile: authority.certFile,
      agent,
      async close() {
        agent.destroy();
        await listener.close();
        await app.close();
      },
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}
