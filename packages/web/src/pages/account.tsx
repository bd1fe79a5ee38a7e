import { useEffect, useState } from "preact/hooks";
import { Feedback } from "../components/action-feedback.tsx";
import { official, web } from "../api.ts";
import { ItemImage } from "../components/item-image.tsx";
import { WearBar } from "../components/wear-bar.tsx";
import { dateTime, goodsName, money } from "../format.ts";
import { language, t } from "../i18n.ts";
import { onLiveEvent } from "../live.ts";
import { apiToken, currentUser, setApiToken } from "../session.ts";
import { useStore } from "../store.ts";

interface GoodsRecord {
  name: string;
  market_hash_name: string;
  icon_url: string;
  sell_min_price?: string;
  tags?: Record<string, { internal_name: string } | undefined>;
}
type GoodsInfos = Record<string, GoodsRecord>;

const SECTIONS = [
  ["inventory", "Inventory"],
  ["listings", "My listings"],
  ["purchases", "Purchases"],
  ["sales", "Sales"],
  ["buy-orders", "Buy orders"],
  ["wallet", "Wallet"],
  ["bookmarks", "Bookmarks"],
] as const;

/** The signed-in user's pages, each on the website's own routes (session cookie and CSRF token). */
export function AccountPage(props: { section: string }) {
  const user = useStore(currentUser);
  useStore(language);
  if (user === undefined) return <p aria-busy="true">{t("Loading…")}</p>;
  if (user === null)
    return (
      <p class="notice">
        {t("Sign in to see your account.")} <a href="/signin">{t("Sign in")}</a>
      </p>
    );
  const section = SECTIONS.some(([key]) => key === props.section) ? props.section : "inventory";
  return (
    <div class="account">
      <h1>{t("My account")}</h1>
      <nav aria-label={t("Account")} class="subnav">
        {SECTIONS.map(([key, label]) => (
          <a key={key} href={`/me/${key}`} aria-current={section === key ? "page" : undefined}>
            {t(label)}
          </a>
        ))}
      </nav>
      {section === "inventory" ? <Inventory /> : null}
      {section === "listings" ? <MyListings /> : null}
      {section === "purchases" ? <Trades kind="purchases" /> : null}
      {section === "sales" ? <Trades kind="sales" /> : null}
      {section === "buy-orders" ? <MyBuyOrders /> : null}
      {section === "wallet" ? <Wallet /> : null}
      {section === "bookmarks" ? <Bookmarks /> : null}
    </div>
  );
}

function useRefresh(): [number, () => void] {
  const [version, setVersion] = useState(0);
  useEffect(() => onLiveEvent(() => setVersion((value) => value + 1)), []);
  return [version, () => setVersion((value) => value + 1)];
}

function Outcome(props: { results: Record<string, string> | null; error: string }) {
  if (props.error) return <p role="alert">{props.error}</p>;
  if (!props.results) return null;
  const failures = Object.entries(props.results).filter(([, value]) => value !== "OK");
  return (
    <p role="status">
      {t("{n} done", { n: Object.keys(props.results).length - failures.length })}
      {failures.map(([id, reason]) => ` · ${id}: ${reason}`).join("")}
    </p>
  );
}

interface InventoryItem {
  assetid: string;
  goods_id: number;
  market_hash_name: string;
  name: string;
  icon_url: string;
  sell_min_price: string;
  tradable: boolean;
  tradable_time: number | null;
  state_text: string;
  progress: number;
  sell_order_id: string | null;
  sell_order_price: string;
  asset_info: { paintwear: string; info: { paintseed: number | null } };
}

/** The bound platform account's items; several can be listed at once, each priced. */
function Inventory() {
  const [version, refresh] = useRefresh();
  const [items, setItems] = useState<InventoryItem[] | null>(null);
  const [goods, setGoods] = useState<GoodsInfos>({});
  const [error, setError] = useState("");
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [results, setResults] = useState<Record<string, string> | null>(null);

  useEffect(() => {
    web<{ items: InventoryItem[]; goods_infos: GoodsInfos }>("GET", "/api/market/steam_inventory", {
      query: { game: "csgo", page_size: 200, force: 1 },
    })
      .then((answer) => {
        setItems(answer.items);
        setGoods(answer.goods_infos);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [version]);

  const list = async () => {
    setResults(null);
    setError("");
    try {
      const assets = [...selected].map((assetid) => ({ assetid, price: prices[assetid] ?? "" }));
      setResults(
        await web<Record<string, string>>("POST", "/api/market/sell_order/create/manual_plus", {
          body: { game: "csgo", assets },
        }),
      );
      setSelected(new Set());
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  if (error && !items) return <p role="alert">{error}</p>;
  if (!items) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="inventory-title">
      <h2 id="inventory-title">{t("Inventory")}</h2>
      {items.length === 0 ? <p class="muted">{t("No items in your bound platform account.")}</p> : null}
      <table aria-label={t("Inventory")}>
        <thead>
          <tr>
            <th scope="col">{t("Select")}</th>
            <th scope="col">{t("Item")}</th>
            <th scope="col">{t("Float")}</th>
            <th scope="col">{t("Lowest price now")}</th>
            <th scope="col">{t("Your price")}</th>
            <th scope="col">{t("State")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const name = goodsName(item);
            const canList = item.progress === 0;
            return (
              <tr key={item.assetid}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t("Select {name}", { name })}
                    disabled={!canList}
                    checked={selected.has(item.assetid)}
                    onChange={(event) => {
                      const next = new Set(selected);
                      if (event.currentTarget.checked) next.add(item.assetid);
                      else next.delete(item.assetid);
                      setSelected(next);
                      if (!prices[item.assetid] && Number(item.sell_min_price) > 0)
                        setPrices({ ...prices, [item.assetid]: item.sell_min_price });
                    }}
                  />
                </td>
                <td class="with-image">
                  <ItemImage
                    iconUrl={item.icon_url}
                    name={name}
                    rarity={goods[String(item.goods_id)]?.tags?.rarity?.internal_name}
                  />
                  <a href={`/goods/${item.goods_id}`}>{name}</a>
                </td>
                <td>
                  <WearBar paintwear={item.asset_info.paintwear} />
                </td>
                <td>{Number(item.sell_min_price) > 0 ? money(item.sell_min_price) : t("No listings")}</td>
                <td>
                  {canList ? (
                    <input
                      aria-label={t("Price for {name}", { name })}
                      inputMode="decimal"
                      size={8}
                      value={prices[item.assetid] ?? ""}
                      onInput={(event) => setPrices({ ...prices, [item.assetid]: event.currentTarget.value })}
                    />
                  ) : (
                    money(item.sell_order_price)
                  )}
                </td>
                <td>
                  {item.progress === 1
                    ? t("On sale")
                    : item.tradable
                      ? t("Tradable")
                      : t("Trade cooldown until {d}", { d: dateTime(item.tradable_time) })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" class="primary" disabled={selected.size === 0} onClick={list}>
        {t("List {n} selected for sale", { n: selected.size })}
      </button>
      <Outcome results={results} error={error} />
    </section>
  );
}

interface OnSaleListing {
  id: string;
  goods_id: number;
  price: string;
  created_at: number;
  asset_info: { paintwear: string };
}

/** The user's listings: reprice or withdraw, one or several at once. */
function MyListings() {
  const [version, refresh] = useRefresh();
  const [listings, setListings] = useState<OnSaleListing[] | null>(null);
  const [goods, setGoods] = useState<GoodsInfos>({});
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [results, setResults] = useState<Record<string, string> | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    web<{ items: OnSaleListing[]; goods_infos: GoodsInfos }>("GET", "/api/market/sell_order/on_sale", {
      query: { game: "csgo", page_size: 200 },
    })
      .then((answer) => {
        setListings(answer.items);
        setGoods(answer.goods_infos);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [version]);

  const act = async (path: string, body: unknown) => {
    setResults(null);
    setError("");
    try {
      setResults(await web<Record<string, string>>("POST", path, { body }));
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  if (!listings) return error ? <p role="alert">{error}</p> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="listings-title">
      <h2 id="listings-title">{t("My listings")}</h2>
      {listings.length === 0 ? <p class="muted">{t("Nothing on sale.")}</p> : null}
      <table aria-label={t("My listings")}>
        <thead>
          <tr>
            <th scope="col">{t("Item")}</th>
            <th scope="col">{t("Float")}</th>
            <th scope="col">{t("Price")}</th>
            <th scope="col">{t("New price")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {listings.map((listing) => {
            const name = goodsName(goods[String(listing.goods_id)]);
            return (
              <tr key={listing.id}>
                <td>
                  <a href={`/goods/${listing.goods_id}`}>{name}</a>
                </td>
                <td>
                  <WearBar paintwear={listing.asset_info.paintwear} />
                </td>
                <td class="price">{money(listing.price)}</td>
                <td>
                  <input
                    aria-label={t("New price for {name}", { name })}
                    inputMode="decimal"
                    size={8}
                    value={prices[listing.id] ?? ""}
                    onInput={(event) => setPrices({ ...prices, [listing.id]: event.currentTarget.value })}
                  />
                  <button
                    type="button"
                    disabled={!prices[listing.id]}
                    onClick={() =>
                      act("/api/market/sell_order/change", {
                        game: "csgo",
                        sell_orders: [{ sell_order_id: listing.id, price: prices[listing.id] }],
                      })
                    }
                  >
                    {t("Reprice")}
                  </button>
                </td>
                <td>
                  <button
                    type="button"
                    onClick={() =>
                      act("/api/market/sell_order/cancel", { game: "csgo", sell_orders: [listing.id] })
                    }
                  >
                    {t("Withdraw")}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Outcome results={results} error={error} />
    </section>
  );
}

interface BillOrder {
  id: string;
  goods_id: number;
  price: string;
  income?: string;
  state: string;
  state_text?: string;
  error_text: string | null;
  tradeofferid: string | null;
  deliver_expire_timeout?: number;
  created_at: number;
  transact_time: number | null;
  asset_info: { paintwear: string };
}

/** What the trade needs next, from the viewer's side. */
function nextStep(trade: BillOrder, kind: "purchases" | "sales"): string {
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
      return t("Failed ({r}); the money went back to the buyer.", { r: trade.error_text ?? "" });
    default:
      return trade.state_text ?? trade.state;
  }
}

const STATE_NAMES: Record<string, string> = {
  PAYING: "Paying",
  SELLER_TO_SEND_OFFER: "Waiting for the seller's offer",
  TRADING: "Offer sent",
  SUCCESS: "Completed",
  FAIL: "Failed",
};

/** Purchases (`buy_order/history`) or sales (`sell_order/history`), each with its state and next step. */
function Trades(props: { kind: "purchases" | "sales" }) {
  const [version, refresh] = useRefresh();
  const token = useStore(apiToken);
  const [trades, setTrades] = useState<BillOrder[] | null>(null);
  const [goods, setGoods] = useState<GoodsInfos>({});
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");

  // Another list is blanked while it loads; a live refresh of the same list is not.
  useEffect(() => setTrades(null), [props.kind]);
  useEffect(() => {
    const path =
      props.kind === "purchases" ? "/api/market/buy_order/history" : "/api/market/sell_order/history";
    web<{ items: BillOrder[]; goods_infos: GoodsInfos }>("GET", path, {
      query: { game: "csgo", page_size: 50 },
    })
      .then((answer) => {
        setTrades(answer.items);
        setGoods(answer.goods_infos);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [version, props.kind]);

  const sendOffer = async (trade: BillOrder) => {
    setError("");
    try {
      await official("POST", "/api/market/developer/sell_order/send_offer", token, {
        body: { order_id: trade.id },
      });
      setMessage(t("Offer sent for {id}.", { id: trade.id }));
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  // The server says whether 30 minutes have passed; the page offers the button while the seller owes the offer.
  const cancelPurchase = async (trade: BillOrder) => {
    setError("");
    setMessage("");
    try {
      await web("POST", "/api/market/bill_order/deliver/cancel", {
        body: { game: "csgo", bill_order_id: trade.id },
      });
      setMessage(t("Purchase {id} cancelled; the money is back.", { id: trade.id }));
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const title = props.kind === "purchases" ? t("Purchases") : t("Sales");
  if (!trades) return error ? <p role="alert">{error}</p> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="trades-title">
      <div class="row">
        <h2 id="trades-title">{title}</h2>
        <button type="button" onClick={refresh}>
          {t("Refresh")}
        </button>
      </div>
      {trades.length === 0 ? <p class="muted">{t("None yet.")}</p> : null}
      <table aria-label={title}>
        <thead>
          <tr>
            <th scope="col">{t("Trade")}</th>
            <th scope="col">{t("Item")}</th>
            <th scope="col">{t("Price")}</th>
            <th scope="col">{t("State")}</th>
            <th scope="col">{t("What happens next")}</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => (
            <tr key={trade.id}>
              <td>
                {trade.id}
                <br />
                <span class="muted small">{dateTime(trade.created_at)}</span>
              </td>
              <td>
                <a href={`/goods/${trade.goods_id}`}>{goodsName(goods[String(trade.goods_id)])}</a>
              </td>
              <td class="price">{money(trade.price)}</td>
              <td>
                <span class={`state state-${trade.state.toLowerCase()}`}>
                  {t(STATE_NAMES[trade.state] ?? trade.state)}
                </span>
              </td>
              <td>
                {nextStep(trade, props.kind)}
                {props.kind === "purchases" && trade.state === "SELLER_TO_SEND_OFFER" ? (
                  <button type="button" onClick={() => cancelPurchase(trade)}>
                    {t("Cancel purchase {id}", { id: trade.id })}
                  </button>
                ) : null}
                {props.kind === "sales" && trade.state === "SELLER_TO_SEND_OFFER" ? (
                  token ? (
                    <button type="button" onClick={() => sendOffer(trade)}>
                      {t("Send offer")}
                    </button>
                  ) : (
                    <TokenField />
                  )
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

/** Where a person pastes the API token the official operations need (kept for this tab). */
function TokenField() {
  const [value, setValue] = useState("");
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault();
        setApiToken(value.trim());
      }}
    >
      <label>
        {t("API token")}
        <input
          value={value}
          autocomplete="off"
          placeholder="smk_…"
          onInput={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      <button type="submit">{t("Use token")}</button>
    </form>
  );
}

interface OwnBuyOrder {
  id: string;
  goods_id: number;
  price: string;
  num: number;
  real_num: number;
  state: string;
  created_at: number;
  specific: Array<{ type: string; values: string[] }>;
}

/**
 * The user's buy orders waiting for items (`buy_order/wait_supply`), cancelled through
 * `buy_order/cancel`, both with the session; turning them online or offline has no website route,
 * so that part uses the official operation with an API token (docs/design.md section 16).
 */
function MyBuyOrders() {
  const token = useStore(apiToken);
  const [version, refresh] = useRefresh();
  const [orders, setOrders] = useState<OwnBuyOrder[] | null>(null);
  const [error, setError] = useState("");
  const [results, setResults] = useState<Record<string, string> | null>(null);

  useEffect(() => {
    web<{ items: OwnBuyOrder[] }>("GET", "/api/market/buy_order/wait_supply", {
      query: { game: "csgo", page_size: 100 },
    })
      .then((answer) => setOrders(answer.items))
      .catch((failure: Error) => setError(failure.message));
  }, [version]);

  const cancel = async (id: string) => {
    setError("");
    try {
      setResults(
        await web<Record<string, string>>("POST", "/api/market/buy_order/cancel", {
          body: { game: "csgo", buy_orders: [id] },
        }),
      );
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">{t("Buy orders")}</h2>
      <p class="muted">
        {t("Orders waiting for items; filled ones are among the purchases.")}{" "}
        {t("Place new ones from an item's Buy orders tab.")}
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {orders && orders.length === 0 ? <p class="muted">{t("No buy orders waiting.")}</p> : null}
      {orders ? (
        <table aria-label={t("Buy orders")}>
          <thead>
            <tr>
              <th scope="col">{t("Order")}</th>
              <th scope="col">{t("Goods")}</th>
              <th scope="col">{t("Price")}</th>
              <th scope="col">{t("Bought / wanted")}</th>
              <th scope="col">{t("Conditions")}</th>
              <th scope="col">{t("State")}</th>
              <th scope="col">
                <span class="visually-hidden">{t("Actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.id}>
                <td>{order.id}</td>
                <td>
                  <a href={`/goods/${order.goods_id}`}>{order.goods_id}</a>
                </td>
                <td class="price">{money(order.price)}</td>
                <td>
                  {order.real_num} / {order.num}
                </td>
                <td>
                  {order.specific.map((entry) => `${entry.type}: ${entry.values.join("–")}`).join("; ") ||
                    "—"}
                </td>
                <td>{order.state}</td>
                <td>
                  {order.state === "progressing" || order.state === "waiting" ? (
                    <button type="button" onClick={() => cancel(order.id)}>
                      {t("Cancel order {id}", { id: order.id })}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Outcome results={results} error="" />
      <h3>{t("Online or offline")}</h3>
      <p class="muted small">
        {t(
          "Taking buy orders offline has no website route: it uses the official API with an API token of yours (kept in this tab only).",
        )}
      </p>
      {token ? (
        <>
          <BuyOrderStatus token={token} />
          <button type="button" onClick={() => setApiToken("")}>
            {t("Forget the API token")}
          </button>
        </>
      ) : (
        <TokenField />
      )}
    </section>
  );
}

/** Whether the user's buy orders buy now (online) or wait (offline), through the official operation. */
function BuyOrderStatus(props: { token: string }) {
  const [status, setStatus] = useState<{ buy_order_status: string; buy_order_auto_offline: boolean } | null>(
    null,
  );
  const [error, setError] = useState("");
  const path = "/api/market/developer/buy_order/status";
  useEffect(() => {
    official<{ buy_order_status: string; buy_order_auto_offline: boolean }>("GET", path, props.token)
      .then(setStatus)
      .catch((failure: Error) => setError(failure.message));
  }, [props.token]);
  if (error) return <p role="alert">{error}</p>;
  if (!status) return null;
  const online = status.buy_order_status === "online";
  return (
    <p class="row">
      <span>
        {online
          ? t("Your buy orders are online: they buy as items are listed.")
          : t("Your buy orders are offline: they wait.")}
      </span>
      <button
        type="button"
        onClick={() =>
          official<{ buy_order_status: string; buy_order_auto_offline: boolean }>("PUT", path, props.token, {
            body: { buy_order_status: online ? "offline" : "online" },
          })
            .then(setStatus)
            .catch((failure: Error) => setError(failure.message))
        }
      >
        {online ? t("Take buy orders offline") : t("Put buy orders online")}
      </button>
    </p>
  );
}

interface BriefAsset {
  cash_amount: string;
  frozen_amount: string;
  security_amount: string;
  alipay_amount: string;
}

/** Balances from `asset/get_brief_asset`. */
function Wallet() {
  const [version, refresh] = useRefresh();
  const [asset, setAsset] = useState<BriefAsset | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    web<BriefAsset>("GET", "/api/asset/get_brief_asset")
      .then(setAsset)
      .catch((failure: Error) => setError(failure.message));
  }, [version]);
  if (error) return <p role="alert">{error}</p>;
  if (!asset) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="wallet-title">
      <div class="row">
        <h2 id="wallet-title">{t("Wallet")}</h2>
        <button type="button" onClick={refresh}>
          {t("Refresh")}
        </button>
      </div>
      <dl class="figures">
        <div>
          <dt>{t("Balance")}</dt>
          <dd>{money(asset.cash_amount)}</dd>
        </div>
        <div>
          <dt>{t("Buy-order funds")}</dt>
          <dd>{money(asset.security_amount)}</dd>
        </div>
        <div>
          <dt>{t("Wallet")}</dt>
          <dd>{money(asset.alipay_amount)}</dd>
        </div>
        <div>
          <dt>{t("In trades (escrow)")}</dt>
          <dd>{money(asset.frozen_amount)}</dd>
        </div>
      </dl>
      <p class="muted small">
        {t("The ledger's movements have no website route yet; purchases and sales list each trade.")}
      </p>
    </section>
  );
}

interface CatalogItem {
  id: number;
  name: string;
  market_hash_name: string;
  sell_min_price: string;
  bookmarked: boolean;
}

/**
 * Bookmarked goods. No route lists a user's bookmarks, so this remembers what was bookmarked
 * from this browser (localStorage) and reads each one's goods page, which says `bookmarked`.
 */
function Bookmarks() {
  const [items, setItems] = useState<CatalogItem[] | null>(null);
  useEffect(() => {
    const ids = JSON.parse(localStorage.getItem("skinmarket.bookmarks") ?? "[]") as number[];
    void Promise.all(
      ids.map((id) =>
        web<CatalogItem>("GET", "/api/market/goods/info", { query: { game: "csgo", goods_id: id } }).catch(
          () => null,
        ),
      ),
    ).then((answers) =>
      setItems(answers.filter((item): item is CatalogItem => item !== null && item.bookmarked)),
    );
  }, []);
  if (!items) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="bookmarks-title">
      <h2 id="bookmarks-title">{t("Bookmarks")}</h2>
      {items.length === 0 ? <p class="muted">{t("No bookmarks from this browser yet.")}</p> : null}
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={`/goods/${item.id}`}>{goodsName(item)}</a> · {money(item.sell_min_price)}
          </li>
        ))}
      </ul>
    </section>
  );
}
