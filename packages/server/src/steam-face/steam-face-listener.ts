import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { SteamFaceApp } from "./steam-face-app.ts";
import { isSteamHost } from "./steam-hosts.ts";

/** The first byte of a TLS handshake record; an HTTP request starts with a letter. */
const TLS_HANDSHAKE = 0x16;

export interface SteamFaceListener {
  port: number;
  close(): Promise<void>;
}

/**
 * One port, two ways in (docs/design/steam-face.md#one-port-two-ways-in): TLS straight away, for a client whose
 * hosts file maps Steam's names here; or an HTTP proxy's CONNECT to one of Steam's names, for a
 * client given HTTPS_PROXY or a proxy option, whose tunnel then carries the same TLS. The first
 * byte tells which. A CONNECT to any other name is refused: the face is no open proxy.
 */
export async function listenSteamFace(
  app: SteamFaceApp,
  options: { host: string; port: number },
): Promise<SteamFaceListener> {
  const proxy = createHttpServer((request, reply) => {
    // A plain request through the proxy (`GET http://...`): Steam is only served over TLS.
    reply.writeHead(405, { "content-type": "text/plain; charset=utf-8", allow: "CONNECT" });
    reply.end("The Steam face's proxy answers CONNECT to Steam's hosts only (https).\n");
    request.resume();
  });
  proxy.on("connect", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = connectTarget(request.url ?? "");
    if (!target || !isSteamHost(target.host) || target.port !== 443) {
      socket.end(
        "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n" +
          `The Steam face tunnels only to Steam's hosts on port 443, not to ${request.url ?? "nothing"}.\n`,
      );
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) socket.unshift(head);
    app.server.emit("connection", socket);
  });
  const sockets = new Set<Socket>();
  const listener = createNetServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.once("readable", () => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) return socket.end();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? app.server : proxy).emit("connection", socket);
    });
    socket.resume();
    socket.pause();
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host, () => {
      listener.off("error", reject);
      resolve();
    });
  });
  return {
    port: (listener.address() as AddressInfo).port,
    async close() {
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      proxy.close();
    },
  };
}

/** `host:port` of a CONNECT request, `[::1]:443` included; undefined when it is no such thing. */
function connectTarget(url: string): { host: string; port: number } | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(url);
  if (!match) return undefined;
  return { host: (match[1] ?? "").toLowerCase(), port: Number(match[2]) };
}
