import pg from "pg";
import { CHANGES_CHANNEL, type ListenForChanges } from "../domain/change-notices.ts";

function isGoodsIds(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((id) => Number.isSafeInteger(id));
}

/**
 * Listens on PostgreSQL for the changes other instances publish (`pg_notify` inside the
 * transaction of the change, so a message arrives only once the change has committed). The
 * connection is its own, outside the pool; when it drops it is opened again after a second, and
 * `onReconnect` lets the caller reload what it may have missed.
 */
export const listenForChanges: ListenForChanges = async (options) => {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.url });
    next.on("notification", (notification) => {
      try {
        const message = JSON.parse(notification.payload ?? "{}") as {
          kind?: unknown;
          from?: unknown;
          goods?: unknown;
          last?: unknown;
        };
        if (typeof message.kind === "string")
          options.onChange({
            kind: message.kind,
            ...(typeof message.from === "string" ? { from: message.from } : {}),
            ...(isGoodsIds(message.goods) ? { goods: message.goods } : {}),
            ...(Number.isSafeInteger(message.last) ? { last: message.last as number } : {}),
          });
      } catch {
        options.log.warn({ payload: notification.payload }, "ignored a change notification that is not JSON");
      }
    });
    next.on("error", (error) => {
      options.log.warn({ err: error }, "the change-notification connection failed; reconnecting");
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    client = next;
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    client?.end().catch(() => undefined);
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      connect()
        .then(() => options.onReconnect())
        .catch(() => scheduleReconnect());
    }, 1000);
    retry.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
};
