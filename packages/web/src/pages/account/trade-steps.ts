import type { getWebSellHistory, listBoughtItems } from "@skinmarket/contract";
import type { WebData } from "../../api.ts";
import { t } from "../../i18n.ts";

/** The purchases' or the sales' list as the account's routes answer it, and one trade of it. */
export type TradeList = WebData<typeof listBoughtItems> | WebData<typeof getWebSellHistory>;
export type Trade = TradeList["items"][number];

export type TradeSide = "purchases" | "sales";

/** What the trade needs next, from the viewer's side. */
export function nextStep(trade: Trade, kind: TradeSide): string {
  switch (trade.state) {
    case "PAYING":
      return t("The card payment is being confirmed.");
    case "SELLER_TO_SEND_OFFER":
      return kind === "sales"
        ? t(
            "Send the trade offer to the buyer (within 12 hours, or the sale fails and the buyer is refunded).",
          )
        : t("Waiting for the seller to send the trade offer (12 hours at most, else you are refunded).");
    case "TRADING":
      return kind === "sales"
        ? t("Offer {o} sent: waiting for the buyer to accept it.", { o: trade.tradeofferid ?? "" })
        : t("Accept trade offer {o} on the platform to receive the item.", { o: trade.tradeofferid ?? "" });
    case "SUCCESS":
      return t("Completed.");
    case "FAIL":
      return t("Failed ({r}); the money went back to the buyer.", {
        r: ("error_text" in trade ? trade.error_text : null) ?? "",
      });
    default:
      return trade.state_text ?? trade.state;
  }
}

export const STATE_NAMES: Record<string, string> = {
  PAYING: "Paying",
  SELLER_TO_SEND_OFFER: "Waiting for the seller's offer",
  TRADING: "Offer sent",
  SUCCESS: "Completed",
  FAIL: "Failed",
};
