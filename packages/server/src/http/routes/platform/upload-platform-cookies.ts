import { uploadPlatformCookies as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { uploadPlatformCookies } from "../../../domain/platform-accounts/upload-platform-cookies.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerUploadPlatformCookies(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, body }) => {
    const uploaded = await uploadPlatformCookies(ctx, {
      platformid: body.platformid,
      platformCookies: body.platform_cookies,
    });
    if (!uploaded.ok) return uploaded;
    return ok({ platformid: uploaded.value.platformid, cookie_state: uploaded.value.cookieState });
  });
}
