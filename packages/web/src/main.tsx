import { render } from "preact";
import { useEffect } from "preact/hooks";
// The style sheets in cascade order (the build joins them into one); the phone's rules come last.
import "./styles/base.css";
import "./styles/header.css";
import "./styles/lists.css";
import "./styles/item.css";
import "./styles/panels.css";
import "./styles/phone.css";
import { HeaderStatus } from "./components/header-status.tsx";
import { settings } from "./config.ts";
import { language, setLanguage, t } from "./i18n.ts";
import { AccountPage } from "./pages/account/account-page.tsx";
import { ACCOUNT_SECTIONS } from "./pages/account/sections.ts";
import { CatalogPage } from "./pages/catalog/catalog-page.tsx";
import { ConsolePage } from "./pages/console/console-page.tsx";
import { startLiveUpdates, stopLiveUpdates } from "./live-stream.ts";
// Keeps the price alerts received live from sign-in on, whichever page is open when one fires.
import "./price-alerts.ts";
import { ItemPage } from "./pages/item/item-page.tsx";
import { SignInPage } from "./pages/signin/signin-page.tsx";
import { SignUpPage } from "./pages/signin/signup-page.tsx";
import { ConfirmEmailPage } from "./pages/signin/confirm-email-page.tsx";
import { OpsPage } from "./pages/ops/ops-page.tsx";
import { navigate, useLocation } from "./router.ts";
import { currentUser, signOut, startSession } from "./session.ts";
import { useStore } from "./store.ts";

/**
 * The header keeps one size from the HTML's static header on (docs/design/website.md#the-layout-on-every-screen):
 * on a phone its rows are fixed (the brand with the language switch and Sign in or out, the menu, and
 * for a signed-in page the user's row), so nothing below moves when the user's controls arrive.
 */
function Header() {
  const user = useStore(currentUser);
  const lang = useStore(language);
  return (
    <header class="top">
      <a href="/" class="brand">
        skinmarket
      </a>
      <nav aria-label={t("Main")}>
        <a href="/">{t("Market")}</a>
        {/* Shown while a signed-in page's user loads, so the links after it stay where they are. */}
        {user !== null ? <a href="/me/inventory">{t("My account")}</a> : null}
        {settings.sandbox ? <a href="/console">{t("Console")}</a> : null}
        <a href="/docs">{t("API reference")}</a>
      </nav>
      <div class="spacer" />
      {user ? (
        <div class="user-bar">
          <span class="who">{user.nickname}</span>
          <HeaderStatus key={user.user_id} />
        </div>
      ) : null}
      <div class="header-actions">
        {user ? (
          <button
            type="button"
            onClick={async () => {
              await signOut();
              navigate("/");
            }}
          >
            {t("Sign out")}
          </button>
        ) : user === null ? (
          <a href="/signin" class="button">
            {t("Sign in")}
          </a>
        ) : null}
        {/* Last, so the controls arriving before it move it not. */}
        <button
          type="button"
          lang={lang === "zh" ? "en" : "zh-Hans"}
          onClick={() => setLanguage(lang === "zh" ? "en" : "zh")}
        >
          {lang === "zh" ? "English" : "中文"}
        </button>
      </div>
    </header>
  );
}

/** The account section a path names: `inventory` for `/me`, undefined for no section of the account. */
function accountSection(path: string): string | undefined {
  const match = /^\/me(?:\/([\w-]+))?\/?$/.exec(path);
  if (!match) return undefined;
  const section = match[1] ?? "inventory";
  return ACCOUNT_SECTIONS.some(([key]) => key === section) ? section : undefined;
}

/** Each page's own `<title>` (before " · skinmarket"), in the page's language. */
function titleOf(path: string, section: string | undefined): string {
  if (path === "/") return t("Market");
  if (path === "/signin") return t("Sign in");
  if (path === "/signup") return t("Sign up");
  if (path === "/confirm-email") return t("Confirm your address");
  if (path === "/ops" || path.startsWith("/ops/")) return t("Back office");
  if (path.startsWith("/console")) return t("Developer console");
  if (section) return `${t(ACCOUNT_SECTIONS.find(([key]) => key === section)![1])} · ${t("My account")}`;
  return t("No such page");
}

function Page() {
  const { path, query } = useLocation();
  useStore(language);
  const goods = /^\/goods\/(\d{1,9})\/?$/.exec(path);
  const section = accountSection(path);
  const title = titleOf(path, section);
  useEffect(() => {
    // An item page names itself once its goods are known (`ItemPage`).
    if (!goods) document.title = `${title} · skinmarket`;
  }, [path, title]);
  if (path === "/") return <CatalogPage query={query} />;
  if (goods) return <ItemPage goodsId={Number(goods[1])} query={query} />;
  if (path === "/signin") return <SignInPage next={query.get("next")} />;
  if (path === "/signup") return <SignUpPage />;
  if (path === "/confirm-email") return <ConfirmEmailPage code={query.get("code")} />;
  if (path === "/ops" || path.startsWith("/ops/")) return <OpsPage />;
  if (section) return <AccountPage section={section} />;
  if (path.startsWith("/console")) return <ConsolePage />;
  return <NotFound />;
}

/** The page of an address the site does not have (the server answers such paths with a 404). */
function NotFound() {
  return (
    <section class="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t("No such page")}</h1>
      <p>{t("Nothing is at this address. It may be mistyped, or the page has moved.")}</p>
      <p>
        <a href="/">{t("Go to the market")}</a>
      </p>
    </section>
  );
}

function App() {
  return (
    <>
      <a href="#main" class="skip">
        {t("Skip to content")}
      </a>
      <Header />
      <main id="main">
        <Page />
      </main>
    </>
  );
}

// The event stream is open while a session is signed in (reopened for another user).
let liveFor: string | undefined;
currentUser.subscribe(() => {
  const userId = currentUser.value?.user_id;
  if (userId === liveFor) return;
  stopLiveUpdates();
  liveFor = userId;
  if (userId) startLiveUpdates();
});
void startSession();
// The page's HTML carries a static header, painted before this script runs; it is replaced here.
const root = document.getElementById("app")!;
root.textContent = "";
render(<App />, root);
