import type {
  listWebhookDeliveries,
  OperationResponse,
  redeliverWebhook,
  sandboxCreateWebhookEndpoint,
  sandboxListWebhookEndpoints,
  sandboxSendTestWebhook,
} from "@skinmarket/contract";
import { useEffect, useState } from "preact/hooks";
import { sandbox } from "../api.ts";
import { Feedback, useAction } from "../use-data.tsx";
import { asUser } from "../console-user-token.ts";
import { dateTime } from "../format.ts";
import { t } from "../i18n.ts";
import { EVENT_TYPE_NAMES } from "./console-events.tsx";

type Endpoint = OperationResponse<typeof sandboxListWebhookEndpoints>["items"][number];
type Delivery = OperationResponse<typeof listWebhookDeliveries>["items"][number];

/**
 * A user's webhook endpoints (docs/design.md section 16): registered through the sandbox (which
 * allows receivers on this machine), test events through the sandbox, and the rest (turning off
 * and on, deleting, the delivery log, redelivering) through the official operations as the user.
 */
export function WebhooksPanel(props: { adminToken: string; userId: string }) {
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [shown, setShown] = useState<string>("");
  const [secret, setSecret] = useState("");
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const refresh = () => setVersion((value) => value + 1);
  const { adminToken, userId } = props;

  useEffect(() => {
    sandbox<{ items: Endpoint[] }>("GET", `/sandbox/users/${userId}/webhooks`, adminToken)
      .then((answer) => setEndpoints(answer.items))
      .catch(() => setEndpoints([]));
  }, [userId, version]);

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
            const created = await sandbox<OperationResponse<typeof sandboxCreateWebhookEndpoint>>(
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

function EndpointRow(props: {
  adminToken: string;
  userId: string;
  endpoint: Endpoint;
  open: boolean;
  onToggle: () => void;
  onChanged: () => void;
}) {
  const { endpoint, adminToken, userId } = props;
  const [message, error, run] = useAction();
  const [testType, setTestType] = useState<string>("balance.changed");
  const path = `/api/market/developer/webhooks/${endpoint.id}`;
  return (
    <li aria-label={t("Endpoint {e}", { e: endpoint.id })}>
      <p>
        <strong>{endpoint.id}</strong> <code>{endpoint.url}</code> · {endpoint.types.join(", ")} ·{" "}
        {endpoint.enabled ? t("Enabled") : t("Disabled")}
        {endpoint.description ? ` · ${endpoint.description}` : ""}
      </p>
      <div class="row">
        <button type="button" aria-expanded={props.open} onClick={props.onToggle}>
          {t("Deliveries of endpoint {e}", { e: endpoint.id })}
        </button>
        <button
          type="button"
          onClick={() =>
            run(async () => {
              await asUser(adminToken, userId, "PUT", path, { body: { enabled: !endpoint.enabled } });
              props.onChanged();
              return endpoint.enabled ? t("Endpoint disabled.") : t("Endpoint enabled.");
            })
          }
        >
          {endpoint.enabled
            ? t("Disable endpoint {e}", { e: endpoint.id })
            : t("Enable endpoint {e}", { e: endpoint.id })}
        </button>
        <button
          type="button"
          onClick={() => {
            if (!window.confirm(t("Delete this endpoint?"))) return;
            void run(async () => {
              await asUser(adminToken, userId, "DELETE", path);
              props.onChanged();
              return t("Endpoint deleted.");
            });
          }}
        >
          {t("Delete endpoint {e}", { e: endpoint.id })}
        </button>
        <label>
          {t("Test event type")}
          <select value={testType} onChange={(event) => setTestType(event.currentTarget.value)}>
            {EVENT_TYPE_NAMES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() =>
            run(async () => {
              const sent = await sandbox<OperationResponse<typeof sandboxSendTestWebhook>>(
                "POST",
                `/sandbox/webhooks/${endpoint.id}/test`,
                adminToken,
                { body: { type: testType } },
              );
              const outcome = sent.attempt.status ?? sent.attempt.error ?? "";
              if (!sent.attempt.delivered)
                throw new Error(t("The test event was not delivered: {o}", { o: String(outcome) }));
              return t("Test event {type} delivered ({s}, {ms} ms).", {
                type: testType,
                s: String(outcome),
                ms: sent.attempt.duration_ms,
              });
            })
          }
        >
          {t("Send test event")}
        </button>
      </div>
      <Feedback message={message} error={error} />
      {props.open ? <Deliveries adminToken={adminToken} userId={userId} endpointId={endpoint.id} /> : null}
    </li>
  );
}

/** The endpoint's delivery log, newest first, read again every few seconds while it is open. */
function Deliveries(props: { adminToken: string; userId: string; endpointId: string }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const path = `/api/market/developer/webhooks/${props.endpointId}/deliveries`;

  useEffect(() => {
    let stopped = false;
    const load = () =>
      asUser<{ items: Delivery[] }>(props.adminToken, props.userId, "GET", path, { query: { page_size: 20 } })
        .then((answer) => !stopped && setDeliveries(answer.items))
        .catch(() => !stopped && setDeliveries([]));
    void load();
    const timer = setInterval(load, 3000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [props.endpointId, version]);

  if (!deliveries) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <>
      {deliveries.length === 0 ? <p class="muted">{t("No deliveries yet.")}</p> : null}
      <table aria-label={t("Deliveries of endpoint {e}", { e: props.endpointId })}>
        <thead>
          <tr>
            <th scope="col">{t("Event")}</th>
            <th scope="col">{t("Type")}</th>
            <th scope="col">{t("State")}</th>
            <th scope="col">{t("Attempts")}</th>
            <th scope="col">{t("Last answer")}</th>
            <th scope="col">{t("Next attempt")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>{delivery.event_id}</td>
              <td>{delivery.event_type}</td>
              <td>
                {delivery.state === "pending"
                  ? t("Pending")
                  : delivery.state === "delivered"
                    ? t("Delivered")
                    : t("Failed")}
              </td>
              <td>{delivery.attempts}</td>
              <td class="small">
                {delivery.last_status ?? delivery.last_error ?? "—"}
                {delivery.last_duration_ms !== null ? ` · ${delivery.last_duration_ms} ms` : ""}
              </td>
              <td>{dateTime(delivery.next_attempt_at)}</td>
              <td>
                <button
                  type="button"
                  onClick={() =>
                    run(async () => {
                      const answer = await asUser<OperationResponse<typeof redeliverWebhook>>(
                        props.adminToken,
                        props.userId,
                        "POST",
                        `${path}/${delivery.id}/redeliver`,
                      );
                      setVersion((value) => value + 1);
                      return answer.attempt.delivered
                        ? t("Event {e} delivered again.", { e: delivery.event_id })
                        : t("Redelivery failed: {o}", {
                            o: String(answer.attempt.status ?? answer.attempt.error ?? ""),
                          });
                    })
                  }
                >
                  {t("Redeliver event {e}", { e: delivery.event_id })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Feedback message={message} error={error} />
    </>
  );
}
