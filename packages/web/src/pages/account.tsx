import { useEffect, useState } from "preact/hooks";
import { Feedback } from "../components/action-feedback.tsx";
import { own, web } from "../api.ts";
import { ItemImage } from "../components/item-image.tsx";
import { WearBar } from "../components/wear-bar.tsx";
import { dateTime, goodsName, money } from "../format.ts";
import { language, t } from "../i18n.ts";
import { onLiveEvent } from "../live.ts";
import { currentUser } from "../session.ts";
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
      await own("POST", "/api/market/developer/sell_order/send_offer", { body: { order_id: trade.id } });
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
                  <button type="button" onClick={() => sendOffer(trade)}>
                    {t("Send offer")}
                  </button>
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
 * `buy_order/cancel`, and online or offline through the official `buy_order/status`, all with the
 * session (docs/design/website.md#how-the-website-authenticates).
 */
function MyBuyOrders() {
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
      <BuyOrderStatus />
    </section>
  );
}

/** Whether the user's buy orders buy now (online) or wait (offline), through the official operation. */
function BuyOrderStatus() {
  const [status, setStatus] = useState<{ buy_order_status: string; buy_order_auto_offline: boolean } | null>(
    null,
  );
  const [error, setError] = useState("");
  const path = "/api/market/developer/buy_order/status";
  useEffect(() => {
    own<{ buy_order_status: string; buy_order_auto_offline: boolean }>("GET", path)
      .then(setStatus)
      .catch((failure: Error) => setError(failure.message));
  }, []);
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
          own<{ buy_order_status: string; buy_order_auto_offline: boolean }>("PUT", path, {
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

/** Balances from `asset/get_brief_asset`, and every movement of the money below them. */
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
      <Movements version={version} />
    </section>
  );
}

interface LedgerEntry {
  id: string;
  kind: string;
  created_at: number;
  sell_order_id?: string;
  trade_id?: string;
  buy_order_id?: string;
  lines: { account: string; amount: string; balance_after: string }[];
}

/** The accounts by the names the ledger route answers, as the figures above call them. */
const ACCOUNT_LABELS: Record<string, string> = {
  market_balance: "Balance",
  margin_balance: "Buy-order funds",
  wallet_balance: "Wallet",
  frozen_amount: "In trades (escrow)",
};

const KIND_LABELS: Record<string, string> = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  purchase_payment: "Purchase paid",
  card_payment: "Card payment",
  trade_payout: "Trade settled",
  trade_refund: "Trade refunded",
  trade_rollback: "Trade rolled back",
  margin_expiry: "Buy-order funds expired",
};

function referenceOf(entry: LedgerEntry): string {
  if (entry.trade_id) return t("Trade {id}", { id: entry.trade_id });
  if (entry.sell_order_id) return t("Listing {id}", { id: entry.sell_order_id });
  if (entry.buy_order_id) return t("Buy order {id}", { id: entry.buy_order_id });
  return "";
}

/**
 * Every movement of the user's money, newest first, from the official ledger route with the
 * session (`balance/entries`): why, when, each account's change and its balance after. Older pages
 * are read on with `before`; a live event reloads the newest.
 */
function Movements(props: { version: number }) {
  const [account, setAccount] = useState("");
  const [entries, setEntries] = useState<LedgerEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState("");
  const load = (before?: string) =>
    own<{ items: LedgerEntry[]; has_more: boolean }>("GET", "/api/market/developer/balance/entries", {
      query: { limit: 20, account, before },
    })
      .then((page) => {
        setEntries((shown) => (before ? [...(shown ?? []), ...page.items] : page.items));
        setMore(page.has_more);
      })
      .catch((failure: Error) => setError(failure.message));
  useEffect(() => {
    void load();
  }, [props.version, account]);
  return (
    <>
      <div class="row">
        <h3 id="movements-title">{t("Movements")}</h3>
        <label>
          {t("Account")}
          <select value={account} onChange={(event) => setAccount(event.currentTarget.value)}>
            <option value="">{t("All accounts")}</option>
            {Object.entries(ACCOUNT_LABELS).map(([name, label]) => (
              <option key={name} value={name}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {entries === null ? <p aria-busy="true">{t("Loading…")}</p> : null}
      {entries && entries.length === 0 ? <p class="muted">{t("No movements yet.")}</p> : null}
      {entries && entries.length > 0 ? (
        <table aria-labelledby="movements-title">
          <thead>
            <tr>
              <th scope="col">{t("Time")}</th>
              <th scope="col">{t("What")}</th>
              <th scope="col">{t("Account")}</th>
              <th scope="col">{t("Amount")}</th>
              <th scope="col">{t("Balance after")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.flatMap((entry) =>
              entry.lines.map((line, index) => (
                <tr key={`${entry.id}-${line.account}`}>
                  <td>{index === 0 ? dateTime(entry.created_at) : ""}</td>
                  <td>
                    {index === 0 ? (
                      <>
                        {t(KIND_LABELS[entry.kind] ?? entry.kind)}
                        <br />
                        <span class="muted small">{referenceOf(entry)}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{t(ACCOUNT_LABELS[line.account] ?? line.account)}</td>
                  <td class={`price ${line.amount.startsWith("-") ? "out" : "in"}`}>
                    {line.amount.startsWith("-") ? "−" : "+"}
                    {money(line.amount.replace(/^-/, ""))}
                  </td>
                  <td class="price">{money(line.balance_after)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      ) : null}
      {more && entries ? (
        <button type="button" onClick={() => load(entries.at(-1)!.id)}>
          {t("Older movements")}
        </button>
      ) : null}
    </>
  );
}

interface BookmarkedGoods {
  type: "goods" | "sell_order";
  id: string;
  created_at: number;
  goods: { id: number; name: string; market_hash_name: string; sell_min_price: string };
}

/** The user's bookmarked goods, newest first (`GET /api/market/goods/bookmark`), each removable. */
function Bookmarks() {
  const [version, refresh] = useRefresh();
  const [items, setItems] = useState<BookmarkedGoods[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    web<{ items: BookmarkedGoods[] }>("GET", "/api/market/goods/bookmark", {
      query: { game: "csgo", type: "goods", page_size: 80 },
    })
      .then((answer) => setItems(answer.items))
      .catch((failure: Error) => setError(failure.message));
  }, [version]);
  const remove = async (item: BookmarkedGoods) => {
    setError("");
    try {
      await web("DELETE", "/api/market/goods/bookmark", { body: { type: "goods", id: item.id } });
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  if (!items) return error ? <p role="alert">{error}</p> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="bookmarks-title">
      <h2 id="bookmarks-title">{t("Bookmarks")}</h2>
      {error ? <p role="alert">{error}</p> : null}
      {items.length === 0 ? <p class="muted">{t("No bookmarks yet.")}</p> : null}
      <ul aria-labelledby="bookmarks-title">
        {items.map((item) => (
          <li key={item.id} class="row">
            <a href={`/goods/${item.goods.id}`}>{goodsName(item.goods)}</a>
            <span class="price">{money(item.goods.sell_min_price)}</span>
            <button type="button" onClick={() => remove(item)}>
              {t("Remove bookmark of {name}", { name: goodsName(item.goods) })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
