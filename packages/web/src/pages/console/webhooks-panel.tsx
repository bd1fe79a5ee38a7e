import type { sandboxCreateWebhookEndpoint, sandboxListWebhookEndpoints } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { EndpointRow } from "./endpoint-row.tsx";
import { createUserToken, hasUserToken } from "./user-token.ts";

/**
 * A user's webhook endpoints (docs/design/website-console.md#the-consoles-events-and-webhooks): registered through the sandbox (which
 * allows receivers on this machine), test events through the sandbox, and the rest (turning off
 * and on, deleting, the delivery log, redelivering) through the official operations as the user,
 * once the operator chose to act as the user (which creates an API token of theirs, and says so).
 */
export function WebhooksPanel(props: { adminToken: string; userId: string }) {
  const [shown, setShown] = useState<string>("");
  const [secret, setSecret] = useState("");
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const [acting, setActing] = useState(() => hasUserToken(props.userId));
  const [actMessage, actError, runAct] = useAction();
  const refresh = () => setVersion((value) => value + 1);
  const { adminToken, userId } = props;
  // A failed read shows no endpoints; what a registration did shows below its form.
  const listed = useLoad(
    () =>
      sandbox<typeof sandboxListWebhookEndpoints>(
        "GET",
        `/sandbox/users/${userId}/webhooks`,
        adminToken,
      ).catch(() => ({ items: [] })),
    [userId, version],
  );
  const endpoints = listed.value?.items ?? [];

  return (
    <section aria-labelledby="webhooks-title" class="panel">
      <h3 id="webhooks-title">{t("Webhooks")}</h3>
      <form
        class="row"
        aria-label={t("Register a webhook endpoint")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const types = String(form.get("types") ?? "")
            .split(/[\s,]+/)
            .filter(Boolean);
          void run(async () => {
            const created = await sandbox<typeof sandboxCreateWebhookEndpoint>(
              "POST",
              `/sandbox/users/${userId}/webhooks`,
              adminToken,
              {
                body: {
                  url: String(form.get("url")).trim(),
                  types: types.length ? types : ["*"],
                  description: String(form.get("description") ?? ""),
                },
              },
            );
            setSecret(created.secret);
            setShown(created.id);
            refresh();
            return t("Endpoint {e} registered.", { e: created.id });
          });
        }}
      >
        <label>
          {t("Endpoint URL")}
          <input name="url" type="url" required size={32} placeholder="http://127.0.0.1:4242/events" />
        </label>
        <label>
          {t("Event types")}
          <input name="types" defaultValue="*" size={18} />
        </label>
        <label>
          {t("Description")}
          <input name="description" size={16} />
        </label>
        <button type="submit">{t("Register endpoint")}</button>
      </form>
      {secret ? (
        <div class="secret" role="group" aria-label={t("Signing secret")}>
          <p>{t("The endpoint's signing secret, shown only now:")}</p>
          <code>{secret}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(secret)}>
            {t("Copy")}
          </button>
          <button type="button" onClick={() => setSecret("")}>
            {t("Done")}
          </button>
        </div>
      ) : null}
      <Feedback message={message} error={error} />
      {acting ? (
        <p class="muted small">{t("The console acts as this user with an API token it created for them.")}</p>
      ) : (
        <div class="row">
          <p class="muted small">
            {t(
              "Turning endpoints off and on, deleting them and their delivery logs go through the user's own API: acting as the user creates an API token for them (listed among their tokens).",
            )}
          </p>
          <button
            type="button"
            onClick={() =>
              runAct(async () => {
                await createUserToken(adminToken, userId);
                setActing(true);
                return t("Token created.");
              })
            }
          >
            {t("Act as this user")}
          </button>
        </div>
      )}
      <Feedback message={actMessage} error={actError} />
      {endpoints.length === 0 ? <p class="muted">{t("No webhook endpoints.")}</p> : null}
      {/* Drawn again once the console acts as the user, so an open delivery log reads at once. */}
      <ul class="endpoints" key={acting ? "acting" : "looking"}>
        {endpoints.map((endpoint) => (
          <EndpointRow
            key={endpoint.id}
            {...props}
            endpoint={endpoint}
            open={shown === endpoint.id}
            onToggle={() => setShown(shown === endpoint.id ? "" : endpoint.id)}
            onChanged={refresh}
          />
        ))}
      </ul>
    </section>
  );
}
