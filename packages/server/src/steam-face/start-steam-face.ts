import type { FastifyBaseLogger } from "fastify";
import type { DomainContext } from "../domain/context.ts";
import { issueLeafCertificates, loadCertificateAuthority } from "./certificate-authority.ts";
import { buildSteamFaceApp } from "./steam-face-app.ts";
import { listenSteamFace } from "./steam-face-listener.ts";

export interface RunningSteamFace {
  port: number;
  /** The CA certificate a bot trusts (NODE_EXTRA_CA_CERTS). */
  caFile: string;
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
    return {
      port: listener.port,
      caFile: authority.certFile,
      async close() {
        await listener.close();
        await app.close();
      },
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}
