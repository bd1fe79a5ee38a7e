import type { FastifyInstance } from "fastify";
import type { DomainContext } from "../../domain/context.ts";

const API_HOST = { host: "api.steampowered.com" };

/**
 * ITwoFactorService/QueryTime: the time Steam Guard codes are made for. steam-totp's
 * getTimeOffset POSTs it (with its bare `https`, no proxy); steampy GETs or POSTs it. The time is
 * the sandbox clock's, so that codes follow the clock when a test moves it. The other fields are
 * the ones Steam sends beside it (the mobile app's probe settings), with Steam's values.
 */
export function queryTimeRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    const answer = () => ({
      response: {
        server_time: String(Math.floor(ctx.clock.now().getTime() / 1000)),
        skew_tolerance_seconds: "60",
        large_time_jink: "86400",
        probe_frequency_seconds: 3600,
        adjusted_time_probe_frequency_seconds: 300,
        hint_probe_frequency_seconds: 60,
        sync_timeout: 60,
        try_again_seconds: 900,
        max_attempts: 3,
      },
    });
    for (const method of ["GET", "POST"] as const)
      app.route({
        method,
        url: "/ITwoFactorService/QueryTime/v1/",
        constraints: API_HOST,
        handler: async () => answer(),
      });
  };
}
