import { useEffect, useState } from "preact/hooks";
import { sandbox } from "../api.ts";
import { t } from "../i18n.ts";
import { EventLog } from "./console-events.tsx";
import { WebhooksPanel } from "./console-webhooks.tsx";

/** The console's events and webhooks of one user, chosen here (docs/design.md section 16). */
export function EventsAndWebhooks(props: { adminToken: string }) {
  const [users, setUsers] = useState<Array<{ user_id: string; nickname: string }>>([]);
  const [userId, setUserId] = useState("");
  const [version, setVersion] = useState(0);

  useEffect(() => {
    sandbox<{ items: Array<{ user_id: string; nickname: string }> }>(
      "GET",
      "/sandbox/users",
      props.adminToken,
      {
        query: { page_size: 500 },
      },
    )
      .then((answer) => setUsers(answer.items))
      .catch(() => setUsers([]));
  }, [version]);

  return (
    <section aria-labelledby="events-title" class="panel">
      <h2 id="events-title">{t("Events and webhooks")}</h2>
      <div class="row">
        <label>
          {t("Events and webhooks of")}
          <select
            value={userId}
            onFocus={() => setVersion((value) => value + 1)}
            onChange={(event) => setUserId(event.currentTarget.value)}
          >
            <option value="">{t("Choose a user")}</option>
            {users.map((user) => (
              <option key={user.user_id} value={user.user_id}>
                {user.nickname} ({user.user_id})
              </option>
            ))}
          </select>
        </label>
      </div>
      <p class="muted small">
        {t(
          "The console acts for the chosen user with an API token it creates for them (listed among their tokens).",
        )}
      </p>
      {userId ? (
        <>
          <EventLog adminToken={props.adminToken} userId={userId} />
          <WebhooksPanel adminToken={props.adminToken} userId={userId} />
        </>
      ) : null}
    </section>
  );
}
