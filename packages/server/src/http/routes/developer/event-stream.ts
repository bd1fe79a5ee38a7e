import { EVENT_STREAM_PATH, OfficialErrorBody } from "@skinmarket/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpFailure } from "../../failure.ts";
import { heldCredential } from "../../plugins/auth.ts";
import type { EventStreamHub } from "../../stream/event-stream-hub.ts";

const DESCRIPTION = [
  "A WebSocket (docs/design/event-stream.md#authentication-on-the-upgrade-request): send `Connection: Upgrade`, `Upgrade: websocket`, and an API token (`Authorization: Bearer`) or the website session cookie from a page of the server's own origin or of `CORS_ORIGINS`.",
  'The client sends JSON text frames: `{"op":"subscribe","channels":["account","market","prices","prices:<goods_id>","book:<goods_id>"],"after":"<event id>","types":["trade.*"]}` (`after` replays from the log first: no gap, no duplicate), `{"op":"unsubscribe","channels":[...]}`, `{"op":"ping"}`.',
  'The server sends `welcome`, `subscribed`, `{"type":"event","channel":...,"event":{...}}` (the events of `GET /api/market/developer/events`), `heartbeat` every `heartbeat_ms`, `pong`, `error` (the field named; the stream stays), and `dropped` before closing a client that reads too slowly (4008).',
  "A client message is at most 16 KiB (larger closes with 1009); while one is handled (a replay), at most 100 more and 64 KiB may wait (more closes with 4029).",
  "Close codes: 1000 normal, 1001 server shutting down, 1009 message too big, 4001 credentials revoked or expired, 4008 slow consumer, 4029 too many messages waiting. A refused upgrade answers HTTP 401 or 403 with the usual error body, and 429 `Quota Exceeded` when the token or session already has `STREAM_MAX_PER_CREDENTIAL` streams open (default 20) or the address `STREAM_MAX_PER_ADDRESS` (default 100).",
].join("\n\n");

/** GET /api/market/developer/stream: the event stream's WebSocket, served by `hub`. */
export function registerEventStream(app: FastifyInstance, hub: EventStreamHub): void {
  app.route({
    method: "GET",
    url: EVENT_STREAM_PATH,
    config: { access: "developer", envelope: "official", operationId: "openEventStream", sessionToo: true },
    schema: {
      operationId: "openEventStream",
      summary: "The event stream: the account's and the market's events as they happen, over a WebSocket",
      description: DESCRIPTION,
      tags: ["Events"],
      security: [{ bearerToken: [] }, { sessionCookie: [] }],
      response: {
        101: { description: "Switching Protocols: the WebSocket is open; the server sends `welcome` first" },
        "4xx": OfficialErrorBody,
      },
    },
    // The caps on open streams, checked on the upgrade (after the credential): the place is held
    // until the socket closes, whichever way the upgrade or the stream ends.
    preHandler: (request, _reply, done) => {
      if (!request.ws || request.actor.kind !== "user") return done();
      const admission = hub.admit(credentialKey(request), request.ip);
      if (!admission.ok) return done(new HttpFailure({ code: "Quota Exceeded", message: admission.message }));
      const socket = request.raw.socket;
      if (socket.destroyed) admission.release();
      else socket.once("close", admission.release);
      done();
    },
    // A request without the upgrade headers reaches this, not the stream.
    handler: () => {
      throw new HttpFailure({
        code: "Invalid Argument",
        message: "upgrade: this path is a WebSocket; send Connection: Upgrade and Upgrade: websocket",
      });
    },
    wsHandler: (socket, request) => {
      if (request.actor.kind !== "user") {
        socket.close(1008, "a user's credential is required");
        return;
      }
      hub.accept(socket, {
        ctx: request.ctx,
        userId: request.actor.userId,
        credential: heldCredential(request),
      });
    },
  });
}

/** The stream's credential for its cap: the API token's id, or the website session. */
function credentialKey(request: FastifyRequest): string {
  const held = heldCredential(request);
  return held.kind === "session"
    ? `session:${held.sessionId}`
    : `token:${request.tokenId ?? held.authorization}`;
}
