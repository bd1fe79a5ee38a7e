import type { sandboxListWebhookDeliveries, sandboxRedeliverWebhook } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { dateTime } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";

/** The endpoint's delivery log, newest first, read again every few seconds while it is open. */
export function Deliveries(props: { adminToken: string; userId: string; endpointId: string }) {
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  // The operator reads the user's log with the admin token: no token of the user's is made.
  const path = `/sandbox/users/${props.userId}/webhooks/${props.endpointId}/deliveries`;
  const loaded = useLoad(
    () =>
      sandbox<typeof sandboxListWebhookDeliveries>("GET", path, props.adminToken, {
        query: { page_num: 1, page_size: 20 },
      }).then((answer) => answer.items),
    [props.endpointId, version],
    { every: 3000 },
  );
  const deliveries = loaded.value;

  if (!deliveries && loaded.error) return <p role="alert">{loaded.error}</p>;
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
                      const answer = await sandbox<typeof sandboxRedeliverWebhook>(
                        "POST",
                        `${path}/${delivery.id}/redeliver`,
                        props.adminToken,
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
