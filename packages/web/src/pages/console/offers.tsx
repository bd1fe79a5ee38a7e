import type {
  OperationResponse,
  sandboxAcceptOffer,
  sandboxDeclineOffer,
  sandboxListOffers,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";

type Offer = OperationResponse<typeof sandboxListOffers>["items"][number];

/** The platform's trade offers, answered as their receiver would. */
export function Offers(props: { token: string }) {
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  // A failed read shows no offers; what an answer to one did shows below the table.
  const listed = useLoad(
    () =>
      sandbox<typeof sandboxListOffers>("GET", "/sandbox/platform/offers", props.token).catch(() => ({
        items: [],
      })),
    [version],
  );
  const offers = listed.value?.items ?? [];
  const answer = (offer: Offer, verb: "accept" | "decline") =>
    run(async () => {
      const path = `/sandbox/platform/offers/${offer.tradeofferid}/${verb}`;
      if (verb === "accept") await sandbox<typeof sandboxAcceptOffer>("POST", path, props.token);
      else await sandbox<typeof sandboxDeclineOffer>("POST", path, props.token);
      setVersion((value) => value + 1);
      return verb === "accept"
        ? t("Offer {o} accepted.", { o: offer.tradeofferid })
        : t("Offer {o} declined.", { o: offer.tradeofferid });
    });
  return (
    <section aria-labelledby="offers-title" class="panel">
      <div class="row">
        <h2 id="offers-title">{t("Trade offers")}</h2>
        <button type="button" onClick={() => setVersion((value) => value + 1)}>
          {t("Refresh")}
        </button>
      </div>
      <p class="muted small">{t("Answer an offer as its receiver would on the platform.")}</p>
      {offers.length === 0 ? <p class="muted">{t("No trade offers.")}</p> : null}
      <table aria-label={t("Trade offers")}>
        <thead>
          <tr>
            <th scope="col">{t("Offer")}</th>
            <th scope="col">{t("From → to")}</th>
            <th scope="col">{t("Message")}</th>
            <th scope="col">{t("State")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {offers.slice(0, 50).map((offer) => (
            <tr key={offer.tradeofferid}>
              <td>{offer.tradeofferid}</td>
              <td class="small">
                {offer.sender} → {offer.receiver}
              </td>
              <td>{offer.message}</td>
              <td>{offer.state}</td>
              <td>
                {offer.state === "active" ? (
                  <>
                    <button type="button" onClick={() => answer(offer, "accept")}>
                      {t("Accept offer {o}", { o: offer.tradeofferid })}
                    </button>
                    <button type="button" onClick={() => answer(offer, "decline")}>
                      {t("Decline offer {o}", { o: offer.tradeofferid })}
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Feedback message={message} error={error} />
    </section>
  );
}
