import type { getBuyOrderStatus, setBuyOrderStatus } from "@skinmarket/contract";
import { own } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";

const STATUS_PATH = "/api/market/developer/buy_order/status";

/** Whether the user's buy orders buy now (online) or wait (offline), through the official operation. */
export function BuyOrderStatus() {
  const status = useLoad(() => own<typeof getBuyOrderStatus>("GET", STATUS_PATH), []);
  const [, switchError, run, busy] = useAction();
  if (status.error) return <Feedback message="" error={status.error} />;
  if (!status.value) return null;
  const online = status.value.buy_order_status === "online";
  const switchStatus = () =>
    run(async () => {
      status.set(
        await own<typeof setBuyOrderStatus>("PUT", STATUS_PATH, {
          body: { buy_order_status: online ? "offline" : "online" },
        }),
      );
      return "";
    });
  return (
    <div class="row">
      <span>
        {online
          ? t("Your buy orders are online: they buy as items are listed.")
          : t("Your buy orders are offline: they wait.")}
      </span>
      <button type="button" disabled={busy} onClick={switchStatus}>
        {online ? t("Take buy orders offline") : t("Put buy orders online")}
      </button>
      <Feedback message="" error={switchError} />
    </div>
  );
}
