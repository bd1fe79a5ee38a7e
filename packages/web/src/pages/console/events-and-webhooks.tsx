import type { sandboxListUsers } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";
import { EventLog } from "./event-log.tsx";
import { WebhooksPanel } from "./webhooks-panel.tsx";

/** The console's events and webhooks of one user, chosen here (docs/design/website-console.md#the-consoles-events-and-webhooks). */
export function EventsAndWebhooks(props: { adminToken: string }) {
  const [userId, setUserId] = useState("");
  const [version, setVersion] = useState(0);
  // The ids offered as one types, read again when the field takes focus; a failed read offers none.
  const listed = useLoad(
    () =>
      sandbox<typeof sandboxListUsers>("GET", "/sandbox/users", props.adminToken, {
        query: { page_size: 500 },
      }).catch(() => ({ items: [], total_page: 0 })),
    [version],
  );
  const users = listed.value?.items ?? [];

  return (
    <section aria-labelledby="events-title" class="panel">
      <h2 id="events-title">{t("Events and webhooks")}</h2>
      <form
        class="row"
        aria-label={t("Choose whose events and webhooks")}
        onSubmit={(event) => {
          event.preventDefault();
          const typed = String(new FormData(event.currentTarget).get("user") ?? "").trim();
          setUserId(/^\d+$/.test(typed) ? typed : "");
        }}
      >
        <label>
          {t("Events and webhooks of")}
          <input
            name="user"
            list="console-user-ids"
            inputMode="numeric"
            placeholder="1001"
            size={10}
            onFocus={() => setVersion((value) => value + 1)}
          />
        </label>
        <datalist id="console-user-ids">
          {users.map((user) => (
            <option key={user.user_id} value={user.user_id}>
              {user.nickname}
            </option>
          ))}
        </datalist>
        <button type="submit">{t("Show")}</button>
      </form>
      {userId ? <p class="muted small">{t("User {u}", { u: userId })}</p> : null}
      {userId ? (
        <>
          <EventLog key={`log-${userId}`} adminToken={props.adminToken} userId={userId} />
          <WebhooksPanel key={`hooks-${userId}`} adminToken={props.adminToken} userId={userId} />
        </>
      ) : null}
    </section>
  );
}
