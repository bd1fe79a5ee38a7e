import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createSecureContext, type SecureContext } from "node:tls";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { DomainContext } from "../domain/context.ts";
import type { LeafCertificate } from "./certificate-authority.ts";
import { PasswordKey } from "./password-key.ts";
import { authenticationRoutes } from "./routes/authentication-routes.ts";
import { confirmationRoutes } from "./routes/confirmation-routes.ts";
import { devKeyRoutes } from "./routes/dev-key-routes.ts";
import { offerPageRoutes } from "./routes/offer-page-routes.ts";
import { communityRoutes } from "./routes/community-routes.ts";
import { econServiceRoutes } from "./routes/econ-service-routes.ts";
import { loginRoutes } from "./routes/login-routes.ts";
import { marketRoutes } from "./routes/market-routes.ts";
import { openIdRoutes } from "./routes/openid-routes.ts";
import { OpenIdProvider } from "./openid-provider.ts";
import { tradeOfferRoutes } from "./routes/trade-offer-routes.ts";
import { queryTimeRoutes } from "./routes/query-time-routes.ts";
import { acceptSteamForms } from "./steam-forms.ts";
import { hostOf, isSteamHost, type SteamHost } from "./steam-hosts.ts";

export interface SteamFaceDeps {
  /** The system's context: the face reads the sandbox world with it, as the platform does. */
  ctx: DomainContext;
  leaves: Record<SteamHost, LeafCertificate>;
  logger?: FastifyBaseLogger;
}

export type SteamFaceApp = FastifyInstance<HttpsServer>;

/**
 * Steam's hosts as one Fastify app over TLS: the certificate by SNI, the routes by Host (each
 * route file constrains its routes to the host Steam serves them on). It is not listened on
 * directly: the face's listener hands it the TLS connections it accepts or tunnels.
 */
export async function buildSteamFaceApp(deps: SteamFaceDeps): Promise<SteamFaceApp> {
  const contexts = new Map<string, SecureContext>(
    Object.entries(deps.leaves).map(([host, leaf]) => [host, createSecureContext(leaf)]),
  );
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger.child({ face: "steam" }) } : { logger: false }),
    // Steam answers `/QueryTime/v1` and `/QueryTime/v1/` alike, and the libraries use both;
    // steamcommunity posts its trade protection acknowledgement to `//trade/new/acknowledge`.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    serverFactory: (handler) =>
      createHttpsServer(
        {
          // A client that names no server (an address, no SNI) gets the community's certificate.
          ...deps.leaves["steamcommunity.com"],
          SNICallback: (servername, answer) => answer(null, contexts.get(servername.toLowerCase())),
        },
        (request, reply) => {
          // Routes match the bare name: a Host with the face's port (hosts-file mode on a port
          // other than 443) is the same host.
          request.headers.host = hostOf(request.headers.host);
          handler(request, reply);
        },
      ),
  }) as unknown as SteamFaceApp;
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .type("text/html; charset=utf-8")
      .send(
        isSteamHost(request.headers.host ?? "")
          ? "<html><body><h1>Not Found</h1><p>The sandbox's Steam face does not serve this path (docs/sandbox.md lists what it serves).</p></body></html>"
          : "<html><body><h1>Not Found</h1><p>This host is not one of Steam's.</p></body></html>",
      ),
  );
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, "Steam face request failed");
    const { statusCode: status, message } = error as { statusCode?: number; message?: string };
    // Bad input (Fastify's own 4xx) is the caller's; anything else says nothing of the internals.
    if (status !== undefined && status >= 400 && status < 500)
      return reply
        .code(status)
        .type("text/plain; charset=utf-8")
        .send(message ?? "Bad Request");
    return reply.code(500).type("text/plain; charset=utf-8").send(`Internal Error (request ${request.id})`);
  });
  acceptSteamForms(app);
  // Read (or made) on the first login, not at start: a face nobody logs into costs no key
  // generation. Both are the database's, the same on every instance, and never change.
  const passwordKey = loadedOnce(() => PasswordKey.load(deps.ctx));
  const openIdProvider = loadedOnce(() => OpenIdProvider.load(deps.ctx));
  await app.register(queryTimeRoutes(deps.ctx));
  await app.register(authenticationRoutes(deps.ctx, passwordKey));
  await app.register(loginRoutes(deps.ctx));
  await app.register(communityRoutes(deps.ctx));
  await app.register(econServiceRoutes(deps.ctx));
  await app.register(tradeOfferRoutes(deps.ctx));
  await app.register(openIdRoutes(deps.ctx, openIdProvider));
  await app.register(confirmationRoutes(deps.ctx));
  await app.register(offerPageRoutes(deps.ctx));
  await app.register(devKeyRoutes(deps.ctx));
  await app.register(marketRoutes(deps.ctx));
  await app.ready();
  return app;
}

/** `load`'s value, asked for once; a failed load (the database unreachable) is asked for again. */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
