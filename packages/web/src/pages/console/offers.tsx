import type {
  OperationResponse,
  sandboxAcceptOffer,
  sandboxDeclineOffer,
  sandboxListOffers,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { HiddenHeader, ListTable, usePaging } from "../../components/paged-list.tsx";
import { dateTime } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";

type Offer = OperationResponse<typeof sandboxListOffers>["items"][number];

/** Offers a page shows: few enough that a row's buttons stay near the pager. */
const PAGE_SIZE = 20;

/**
 * The trade offers of the chosen user's platform accounts (filtered by the server, a page at a
 * time under the shared pager), answered as their receiver would (docs/design/website-console.md#the-console).
 * Declining asks for confirmation; an answer's outcome shows above the table, next to the buttons.
 */
export function Offers(props: { token: string; userId: string }) {
  return (
    <section aria-labelledby="offers-title" class="panel">
      <h2 id="offers-title">{t("Trade offers")}</h2>
      {props.userId ? (
        <UserOffers key={props.userId} token={props.token} userId={props.userId} />
      ) : (
        <p class="muted">{t("Choose a user above to see the trade offers of their platform accounts.")}</p>
      )}
    </section>
  );
}

function UserOffers(props: { token: string; userId: string }) {
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const paging = usePaging(PAGE_SIZE);
  const listed = useLoad(
    () =>
      sandbox<typeof sandboxListOffers>("GET", "/sandbox/platform/offers", props.token, {
        query: { user_id: props.userId, ...paging.query },
      }),
    [version, paging.pageNum],
  );
  const offers = listed.value?.items ?? [];
  const answer = (offer: Offer, verb: "accept" | "decline") => {
    if (verb === "decline" && !window.confirm(t("Decline offer {o}?", { o: offer.tradeofferid }))) return;
    void run(async () => {
      const path = `/sandbox/platform/offers/${offer.tradeofferid}/${verb}`;
      if (verb === "accept") await sandbox<typeof sandboxAcceptOffer>("POST", path, props.token);
      else await sandbox<typeof sandboxDeclineOffer>("POST", path, props.token);
      setVersion((value) => value + 1);
      return verb === "accept"
        ? t("Offer {o} accepted.", { o: offer.tradeofferid })
        : t("Offer {o} declined.", { o: offer.tradeofferid });
    });
  };
  return (
    <>
      <div class="row">
        <p class="muted small">
          {t("Offers sent or received by user {u}'s platform accounts; answer one as its receiver would.", {
            u: props.userId,
          })}
        </p>
        <button type="button" onClick={() => setVersion((value) => value + 1)}>
          {t("Refresh offers")}
        </button>
      </div>
      {listed.error ? <p role="alert">{listed.error}</p> : null}
      <Feedback message={message} error={error} />
      {listed.value && offers.length === 0 ? <p class="muted">{t("No trade offers.")}</p> : null}
      <ListTable
        label={t("Trade offers")}
        headers={[
          t("Offer"),
          t("From → to"),
          t("Items"),
          t("Message"),
          t("State"),
          t("Created"),
          <HiddenHeader text={t("Actions")} />,
        ]}
        range={paging.range(listed.value)}
      >
        {offers.map((offer) => (
          <tr key={offer.tradeofferid}>
            <td>{offer.tradeofferid}</td>
            <td class="small">
              {offer.sender} → {offer.receiver}
            </td>
            <td>{offer.assetids.length}</td>
            <td>{offer.message}</td>
            <td>{offer.state}</td>
            <td>{dateTime(offer.created_at)}</td>
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
      </ListTable>
    </>
  );
}
