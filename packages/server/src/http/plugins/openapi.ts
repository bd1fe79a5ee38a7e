import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";

/**
 * The OpenAPI 3.1 document, generated from the contract schemas the routes validate with, and an
 * API reference page at /docs (Swagger UI, served from the package: no outside assets).
 */
export async function registerOpenApi(app: FastifyInstance, options: { sandbox: boolean }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "skinmarket",
        version: "1.0.0",
        description:
          "A CS2 item marketplace: official operations (bearer token), internal website routes (session cookie)" +
          (options.sandbox ? " and the sandbox API (admin token)." : "."),
      },
      components: {
        securitySchemes: {
          bearerToken: {
            type: "http",
            scheme: "bearer",
            description: "API token: Authorization: Bearer smk_...",
          },
          sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
          sandboxAdminToken: { type: "http", scheme: "bearer", description: "The sandbox admin token" },
        },
      },
    },
  });
  // Swagger UI's own routes are registered in a child context that declares them public.
  await app.register(async (docs) => {
    docs.addHook("onRoute", (route) => {
      route.config = { ...route.config, access: "public", envelope: "official" };
    });
    await docs.register(swaggerUi, { routePrefix: "/docs" });
  });
}
