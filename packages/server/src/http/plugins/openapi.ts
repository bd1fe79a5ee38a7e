import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { documentRouteSchema, nameSharedSchemas, type RouteSchema } from "./openapi-document.ts";

/** The server package's version: the document describes this release of the service. */
const SERVER_VERSION = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

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
        version: SERVER_VERSION,
        license: { name: "MIT", identifier: "MIT" },
        description:
          "A CS2 item marketplace: official operations (bearer token), internal website routes (session cookie)" +
          (options.sandbox ? " and the sandbox API (admin token)." : "."),
      },
      // The port `serve` listens on unless told otherwise, and the origin the document was read from.
      servers: [
        { url: "/", description: "The server that serves this document" },
        { url: "http://127.0.0.1:8080", description: "A local server on the default port" },
      ],
      components: {
        securitySchemes: {
          bearerToken: {
            type: "http",
            scheme: "bearer",
            description: "API token: Authorization: Bearer smk_...",
          },
          sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
          staffSessionCookie: { type: "apiKey", in: "cookie", name: "staff_session" },
          sandboxAdminToken: { type: "http", scheme: "bearer", description: "The sandbox admin token" },
        },
      },
    },
    transform: ({ schema, url, route }) => ({
      schema: documentRouteSchema(schema as RouteSchema | undefined, route) as typeof schema,
      url,
    }),
    transformObject: (documentObject) =>
      "openapiObject" in documentObject
        ? (nameSharedSchemas(documentObject.openapiObject as never) as typeof documentObject.openapiObject)
        : documentObject.swaggerObject,
  });
  // Swagger UI's own routes are registered in a child context that declares them public.
  await app.register(async (docs) => {
    docs.addHook("onRoute", (route) => {
      route.config = { ...route.config, access: "public", envelope: "official" };
    });
    await docs.register(swaggerUi, { routePrefix: "/docs" });
  });
}
