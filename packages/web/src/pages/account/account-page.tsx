import { language, t } from "../../i18n.ts";
import { currentUser } from "../../session.ts";
import { useStore } from "../../store.ts";
import { Bookmarks } from "./bookmarks.tsx";
import { Inventory } from "./inventory.tsx";
import { SignIns } from "./sign-ins.tsx";
import { MyBuyOrders } from "./my-buy-orders.tsx";
import { MyListings } from "./my-listings.tsx";
import { ACCOUNT_SECTIONS } from "./sections.ts";
import { Trades } from "./trades.tsx";
import { Wallet } from "./wallet.tsx";

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
  const section = ACCOUNT_SECTIONS.some(([key]) => key === props.section) ? props.section : "inventory";
  return (
    <div class="account">
      <h1>{t("My account")}</h1>
      <nav aria-label={t("Account")} class="subnav">
        {ACCOUNT_SECTIONS.map(([key, label]) => (
          <a key={key} href={`/me/${key}`} aria-current={section === key ? "page" : undefined}>
            {t(label)}
          </a>
        ))}
      </nav>
      {section === "inventory" ? <Inventory /> : null}
      {section === "listings" ? <MyListings /> : null}
      {section === "purchases" ? <Trades key="purchases" kind="purchases" /> : null}
      {section === "sales" ? <Trades key="sales" kind="sales" /> : null}
      {section === "buy-orders" ? <MyBuyOrders /> : null}
      {section === "wallet" ? <Wallet /> : null}
      {section === "bookmarks" ? <Bookmarks /> : null}
      {section === "security" ? <SignIns nickname={user.nickname} /> : null}
    </div>
  );
}
