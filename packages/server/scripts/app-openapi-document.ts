import { buildApp } from "../src/app.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase } from "../src/storage/database.ts";

/**
 * The OpenAPI document the server serves at /openapi.json, built in this process with the sandbox
 * on (so that every operation is in it). No server listens and nothing is migrated: building the
 * app reads no table.
 */
export async function appOpenApiDocument(): Promise<object> {
  const database = await openDatabase({ kind: "pglite" });
  const clock = new OffsetClock();
  try {
    const app = await buildApp({
      database,
      clock,
      platform: new SandboxPlatform(),
      secretBox: new SecretBox(SecretBox.generateKey()),
      sandbox: { clock, adminToken: "sma_openapi-document" },
    });
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await database.close();
  }
}
