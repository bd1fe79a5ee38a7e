import type { sandboxCreateWebhookEndpoint, sandboxListWebhookEndpoints } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { EndpointRow } from "./endpoint-row.tsx";

/**
 * A user's webhook endpoints (docs/design/website-console.md#the-consoles-events-and-webhooks),
 * all through the sandbox with the admin token, as the user would act on them: registered, sent a
 * test event, turned off and on, deleted, their delivery log read and redelivered. The operator
 * needs no API token of the user's, so looking after a user's webhooks creates none.
 */
export function WebhooksPanel(props: { adminToken: string; userId: string }) {
  const [shown, setShown] = useState<string>("");
  const [secret, setSecret] = useState("");
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
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
      {endpoints.length === 0 ? <p class="muted">{t("No webhook endpoints.")}</p> : null}
      <ul class="endpoints">
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
