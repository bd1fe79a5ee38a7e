import type {
  EventType,
  OperationResponse,
  sandboxDeleteWebhookEndpoint,
  sandboxListWebhookEndpoints,
  sandboxSendTestWebhook,
  sandboxUpdateWebhookEndpoint,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";
import { Deliveries } from "./deliveries.tsx";
import { EVENT_TYPE_NAMES } from "./event-types.ts";

type Endpoint = OperationResponse<typeof sandboxListWebhookEndpoints>["items"][number];

/** One endpoint: turned off and on, deleted, sent a test event, and its deliveries shown. */
export function EndpointRow(props: {
  adminToken: string;
  userId: string;
  endpoint: Endpoint;
  open: boolean;
  onToggle: () => void;
  onChanged: () => void;
}) {
  const { endpoint, adminToken, userId } = props;
  const [message, error, run] = useAction();
  const [testType, setTestType] = useState<EventType>("balance.changed");
  // As the user would, through the admin token: the operator needs no token of the user's.
  const path = `/sandbox/users/${userId}/webhooks/${endpoint.id}`;
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
              await sandbox<typeof sandboxUpdateWebhookEndpoint>("PUT", path, adminToken, {
                body: { enabled: !endpoint.enabled },
              });
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
              await sandbox<typeof sandboxDeleteWebhookEndpoint>("DELETE", path, adminToken);
              props.onChanged();
              return t("Endpoint deleted.");
            });
          }}
        >
          {t("Delete endpoint {e}", { e: endpoint.id })}
        </button>
        <label>
          {t("Test event type")}
          {/* The options are the event types, so the chosen value is one. */}
          <select value={testType} onChange={(event) => setTestType(event.currentTarget.value as EventType)}>
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
              const sent = await sandbox<typeof sandboxSendTestWebhook>(
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
