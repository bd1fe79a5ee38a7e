import type { MarketplaceEvent, sandboxListUserEvents } from "@skinmarket/contract";
import { useEffect, useState } from "preact/hooks";
import { dateTime } from "../../format.ts";
import { t } from "../../i18n.ts";
import { EVENT_TYPE_NAMES } from "./event-types.ts";
import { sandbox } from "../../api.ts";

/** How often the log asks for new events, and how many it keeps on screen. */
const POLL_MS = 1000;
const KEPT = 200;

/**
 * The live event log of one user (docs/design/website-console.md#the-consoles-events-and-webhooks): the user's events as they happen,
 * newest first, each with its `data` record, read as the admin with the sandbox's copy of the polling
 * operation (so looking creates no token of the user's), on from the last id seen, so a failed read
 * loses nothing. A type filter reads the log again from its start with that filter.
 */
export function EventLog(props: { adminToken: string; userId: string }) {
  const [events, setEvents] = useState<MarketplaceEvent[]>([]);
  const [filter, setFilter] = useState("");
  const [error, setError] = useState("");
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let stopped = false;
    let after = "0";
    let timer: ReturnType<typeof setTimeout> | undefined;
    setEvents([]);
    setLoaded(false);
    const read = async () => {
      try {
        for (;;) {
          const page = await sandbox<typeof sandboxListUserEvents>(
            "GET",
            `/sandbox/users/${props.userId}/events`,
            props.adminToken,
            { query: { after, limit: 1000, types: filter || undefined } },
          );
          if (stopped) return;
          if (page.items.length > 0) {
            after = page.items[page.items.length - 1]!.id;
            const newest = [...page.items].reverse() as MarketplaceEvent[];
            setEvents((shown) => [...newest, ...shown].slice(0, KEPT));
          }
          setError("");
          if (!page.has_more) break;
        }
        setLoaded(true);
      } catch (failure) {
        if (!stopped) setError((failure as Error).message);
      }
      if (!stopped) timer = setTimeout(read, POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.userId, filter]);

  return (
    <section aria-labelledby="event-log-title" class="panel">
      <h3 id="event-log-title">{t("Live event log")}</h3>
      <form
        class="row"
        aria-label={t("Filter events")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setFilter(String(form.get("types") ?? "").trim());
        }}
      >
        <label>
          {t("Event types")}
          <input name="types" list="event-type-names" placeholder="trade.*, balance.changed" size={28} />
        </label>
        <datalist id="event-type-names">
          {EVENT_TYPE_NAMES.filter((type) => !type.startsWith("market.")).map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <button type="submit">{t("Apply filter")}</button>
      </form>
      <p class="muted small">
        {t("The user's account events as they happen, newest first; the log keeps the last {n}.", {
          n: KEPT,
        })}
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {!loaded && !error ? <p aria-busy="true">{t("Loading…")}</p> : null}
      {loaded && events.length === 0 ? <p class="muted">{t("No events yet.")}</p> : null}
      <table aria-label={t("Live event log")}>
        <thead>
          <tr>
            <th scope="col">{t("Event")}</th>
            <th scope="col">{t("Time")}</th>
            <th scope="col">{t("Type")}</th>
            <th scope="col">{t("Goods")}</th>
            <th scope="col">{t("Record")}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td>{event.id}</td>
              <td>{dateTime(event.created_at)}</td>
              <td>{event.type}</td>
              <td>{event.goods_id ?? "—"}</td>
              <td>
                <details>
                  <summary>{t("Data of event {e}", { e: event.id })}</summary>
                  <pre class="event-data">{JSON.stringify(event.data, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
