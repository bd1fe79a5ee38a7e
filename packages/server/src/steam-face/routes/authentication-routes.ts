import type { FastifyInstance } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import { ERESULT, steamFail, steamOk, type SteamResult } from "../../platform/sandbox/steam-eresult.ts";
import {
  beginSteamLogin,
  generateSteamAccessToken,
  pollSteamLogin,
  submitSteamGuardCode,
} from "../../platform/sandbox/steam-login.ts";
import { beginSteamQrLogin, confirmSteamLoginOnMobile } from "../../platform/sandbox/steam-mobile-login.ts";
import {
  listSteamAuthSessionsForAccount,
  readSteamAuthSessionInfo,
} from "../../platform/sandbox/steam-auth-session-info.ts";
import type { SteamAudience } from "../../storage/schema.ts";
import {
  AUTHENTICATION_METHODS,
  decodeRequest,
  encodeResponse,
  type AuthenticationMethod,
} from "../authentication-protos.ts";
import type { PasswordKey } from "../password-key.ts";
import { fieldsOf } from "../steam-forms.ts";

type Fields = Record<string, unknown>;
/**
 * `input` is the request message (decoded, or the plain fields); `fields`, the call's own fields
 * (`access_token`); `ip`, the caller's address.
 */
type MethodHandler = (
  input: Fields,
  fields: Record<string, string>,
  ip: string,
) => Promise<SteamResult<Fields>>;

/**
 * EAuthSessionGuardType: the mobile authenticator's code (DeviceCode) or its approval
 * (DeviceConfirmation), the guards the sandbox asks. The code comes first, so that steam-session
 * given a code passes with it before it starts polling for an approval.
 */
const DEVICE_CODE = 3;
const DEVICE_CONFIRMATION = 4;
const AUDIENCES: Record<string, SteamAudience> = {
  "1": "client",
  "2": "web",
  "3": "mobile",
  SteamClient: "client",
  WebBrowser: "web",
  MobileApp: "mobile",
};

/**
 * IAuthenticationService's credential and QR logins on api.steampowered.com (the QR login and the
 * mobile approval in docs/design/steam-face.md#login), in both forms the libraries
 * send: `input_protobuf_encoded` (steam-session, Steamauto's steampy), answered as protobuf, and
 * plain fields (steampy), answered as JSON `{response}`. Either way the outcome is in `X-eresult`
 * (and `X-error_message`), with HTTP 200, as Steam answers.
 */
export function authenticationRoutes(ctx: DomainContext, passwordKey: () => Promise<PasswordKey>) {
  const handlers: Record<AuthenticationMethod, MethodHandler> = {
    GetPasswordRSAPublicKey: async () => {
      const key = await passwordKey();
      return steamOk({
        publickey_mod: key.modulusHex,
        publickey_exp: key.exponentHex,
        timestamp: key.timestamp,
      });
    },
    BeginAuthSessionViaCredentials: async (input, _fields, ip) => {
      const key = await passwordKey();
      const began = await beginSteamLogin(ctx, {
        accountName: text(input.account_name),
        password: key.decrypt(text(input.encrypted_password), text(input.encryption_timestamp)),
        audience: audienceOf(input),
        requestor: requestorOf(input, ip),
      });
      if (!began.ok) return began;
      return steamOk({
        client_id: began.value.clientId,
        request_id: began.value.requestId,
        interval: began.value.interval,
        allowed_confirmations: [
          { confirmation_type: DEVICE_CODE },
          { confirmation_type: DEVICE_CONFIRMATION },
        ],
        steamid: began.value.steamid,
      });
    },
    BeginAuthSessionViaQR: async (input, _fields, ip) => {
      const began = await beginSteamQrLogin(ctx, {
        audience: audienceOf(input),
        requestor: requestorOf(input, ip),
      });
      if (!began.ok) return began;
      return steamOk({
        client_id: began.value.clientId,
        challenge_url: began.value.challengeUrl,
        request_id: began.value.requestId,
        interval: began.value.interval,
        allowed_confirmations: [{ confirmation_type: DEVICE_CONFIRMATION }],
        version: began.value.version,
      });
    },
    UpdateAuthSessionWithMobileConfirmation: async (input, fields) => {
      const confirmed = await confirmSteamLoginOnMobile(ctx, {
        accessToken: fields.access_token ?? "",
        version: Number(text(input.version)),
        clientId: text(input.client_id),
        steamid: text(input.steamid),
        signature: bytes(input.signature),
        confirm: input.confirm === true || input.confirm === "true" || input.confirm === "1",
      });
      return confirmed.ok ? steamOk({}) : confirmed;
    },
    UpdateAuthSessionWithSteamGuardCode: async (input) => {
      const submitted = await submitSteamGuardCode(ctx, {
        clientId: text(input.client_id),
        steamid: text(input.steamid),
        code: text(input.code),
      });
      return submitted.ok ? steamOk({}) : submitted;
    },
    PollAuthSessionStatus: async (input) => {
      const requestId = bytes(input.request_id);
      const polled = await pollSteamLogin(ctx, { clientId: text(input.client_id), requestId });
      if (!polled.ok) return polled;
      const { refreshToken, accessToken, accountName, hadRemoteInteraction } = polled.value;
      return steamOk(
        refreshToken
          ? {
              refresh_token: refreshToken,
              access_token: accessToken,
              had_remote_interaction: hadRemoteInteraction ?? false,
              account_name: accountName,
            }
          : hadRemoteInteraction
            ? { had_remote_interaction: true }
            : {},
      );
    },
    GetAuthSessionInfo: async (input, fields) => {
      const read = await readSteamAuthSessionInfo(ctx, {
        accessToken: fields.access_token ?? "",
        clientId: text(input.client_id),
      });
      if (!read.ok) return read;
      const info = read.value;
      return steamOk({
        ip: info.ip,
        geoloc: info.geoloc,
        city: info.city,
        state: info.state,
        country: info.country,
        platform_type: info.platformType,
        device_friendly_name: info.deviceFriendlyName,
        version: info.version,
        login_history: info.loginHistory,
        requestor_location_mismatch: info.locationMismatch,
        high_usage_login: info.highUsageLogin,
        requested_persistence: info.requestedPersistence,
      });
    },
    GetAuthSessionsForAccount: async (_input, fields) => {
      const listed = await listSteamAuthSessionsForAccount(ctx, { accessToken: fields.access_token ?? "" });
      return listed.ok ? steamOk({ client_ids: listed.value.clientIds }) : listed;
    },
    GenerateAccessTokenForApp: async (input) => {
      const steamid = text(input.steamid);
      const generated = await generateSteamAccessToken(ctx, {
        refreshToken: text(input.refresh_token),
        steamid: steamid === "" || steamid === "0" ? undefined : steamid,
      });
      return generated.ok ? steamOk({ access_token: generated.value.accessToken }) : generated;
    },
  };

  return async (app: FastifyInstance) => {
    for (const method of Object.keys(AUTHENTICATION_METHODS) as AuthenticationMethod[]) {
      app.route({
        method: ["GET", "POST"],
        url: `/IAuthenticationService/${method}/v1/`,
        constraints: { host: "api.steampowered.com" },
        handler: async (request, reply) => {
          const fields = fieldsOf(request);
          const encoded = fields.input_protobuf_encoded;
          const result = await answer(method, handlers[method], fields, encoded, request.ip);
          reply.header("x-eresult", String(result.ok ? ERESULT.OK : result.eresult));
          if (!result.ok) reply.header("x-error_message", result.message);
          if (encoded !== undefined)
            return reply
              .type("application/octet-stream")
              .send(result.ok ? encodeResponse(method, result.value) : Buffer.alloc(0));
          return reply
            .type("application/json; charset=utf-8")
            .send({ response: result.ok ? jsonForm(result.value) : {} });
        },
      });
    }
  };
}

async function answer(
  method: AuthenticationMethod,
  handler: MethodHandler,
  fields: Record<string, string>,
  encoded: string | undefined,
  ip: string,
): Promise<SteamResult<Fields>> {
  let input: Fields = fields;
  if (encoded !== undefined) {
    try {
      input = decodeRequest(method, encoded);
    } catch {
      return steamFail(ERESULT.InvalidParam, "input_protobuf_encoded: not a valid request message");
    }
  }
  return handler(input, fields, ip);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/** A bytes field: a Buffer from protobuf, base64 in the plain form. */
function bytes(value: unknown): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(text(value), "base64");
}

/** Who began a login: the caller's address and the device name it gave (`device_details` first, as steam-session sends it). */
function requestorOf(input: Fields, ip: string) {
  const details = input.device_details as Fields | undefined;
  return { ip, deviceFriendlyName: text(details?.device_friendly_name ?? input.device_friendly_name) };
}

function audienceOf(input: Fields): SteamAudience {
  const details = input.device_details as Fields | undefined;
  return AUDIENCES[text(details?.platform_type ?? input.platform_type)] ?? "web";
}

/** The JSON form of an answer: bytes as base64, as Steam's JSON answers carry them. */
function jsonForm(fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      Buffer.isBuffer(value) ? value.toString("base64") : value,
    ]),
  );
}
