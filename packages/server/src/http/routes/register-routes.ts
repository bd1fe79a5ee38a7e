import { registerListEvents } from "./developer/list-events.ts";
import { registerWebhookRoutes } from "./developer/webhooks.ts";
import { registerSandboxWebhooks } from "./sandbox/webhooks.ts";
import type { FastifyInstance } from "fastify";
import type { Runtime } from "../../runtime.ts";
import { registerGetBalance } from "./developer/get-balance.ts";
import { registerListLedgerEntries } from "./developer/list-ledger-entries.ts";
import { registerGetBuyOrderStatus } from "./developer/get-buy-order-status.ts";
import { registerSetBuyOrderStatus } from "./developer/set-buy-order-status.ts";
import { registerGetPlatformInventory } from "./platform/get-platform-inventory.ts";
import { registerSetupPlatformAccount } from "./platform/setup-platform-account.ts";
import { registerUploadPlatformCookies } from "./platform/upload-platform-cookies.ts";
import { registerSandboxCreateUser } from "./sandbox/create-user.ts";
import { registerSandboxUsers } from "./sandbox/users.ts";
import { registerPurchaseRoutes } from "./purchases/purchase-routes.ts";
import { registerBuyOrderRoutes, registerSandboxBuyOrderRoutes } from "./buy-orders/buy-order-routes.ts";
import { registerGetBuyOrderBook } from "./market/get-buy-order-book.ts";
import { registerGoodsBookmarks } from "./market/goods-bookmarks.ts";
import { registerGoodsPageRoutes } from "./market/goods-page-routes.ts";
import { registerGetInspectSkins } from "./market/get-inspect-skins.ts";
import { registerListCatalogGoods } from "./market/list-catalog-goods.ts";
import { registerMarketDataRoutes } from "./market/market-data-routes.ts";
import { registerGetMarketItems } from "./market/get-market-items.ts";
import { registerPriceRoutes } from "./market/price-routes.ts";
import { registerSandboxLiquidity } from "./sandbox/liquidity.ts";
import { registerGetEnterpriseSellOrders } from "./market/get-enterprise-sell-orders.ts";
import { registerGetOnSale } from "./sell-orders/get-on-sale.ts";
import { registerSellerTradeRoutes } from "./sell-orders/trade-routes.ts";
import { registerSellOrderItems } from "./sell-orders/sell-order-items.ts";
import { registerSandboxPlatformAccounts } from "./sandbox/platform-accounts.ts";
import { registerSandboxPlatformItems } from "./sandbox/platform-items.ts";
import { registerSandboxPlatformOffers } from "./sandbox/platform-offers.ts";
import { registerSandboxFunds } from "./sandbox/funds.ts";
import { registerSandboxSettings } from "./sandbox/settings.ts";
import { registerSandboxTokens } from "./sandbox/tokens.ts";
import { registerSandboxWorld } from "./sandbox/world.ts";
import { registerSandboxSimulation } from "./sandbox/simulation.ts";
import { registerSandboxPlatformFaults } from "./sandbox/platform-fault.ts";
import { registerGetUserInfo } from "./web-account/get-user-info.ts";
import { registerLogin, type SessionCookieOptions } from "./web-account/login.ts";
import { registerSteamSignIn } from "./web-account/steam-sign-in.ts";
import type { SteamOpenIdSettings } from "../steam-openid/check-authentication.ts";
import { registerLogout } from "./web-account/logout.ts";
import { registerAccountsForPeople } from "./web-account/accounts-for-people.ts";
import { registerSandboxMails } from "./sandbox/mails.ts";
import { registerStaffSessionRoutes } from "./staff/staff-session-routes.ts";
import { registerStaffMoneyRoutes } from "./staff/staff-money-routes.ts";
import { registerStaffOperationRoutes } from "./staff/staff-operation-routes.ts";
import { registerWebProbes } from "./web-account/web-probes.ts";
import { registerWebInventoryRoutes } from "./web-selling/web-inventory-routes.ts";
import { registerWebOnSale } from "./web-selling/web-on-sale.ts";
import { registerWebSellHistory } from "./web-selling/web-sell-history.ts";
import { registerWebSellOrderWrites } from "./web-selling/web-sell-order-writes.ts";
import { registerWebDeliveryRoutes } from "./web-selling/web-delivery-routes.ts";
import { registerBillOrderRoutes } from "./web-buying/bill-order-routes.ts";
import { registerGoodsBuyRoutes } from "./web-buying/goods-buy-routes.ts";
import { registerWebBuyOrderRoutes } from "./web-buying/web-buy-order-routes.ts";

export interface RouteOptions extends SessionCookieOptions {
  /** The user's scenario files, which run by name beside the built-in ones (`SCENARIOS_DIR`). */
  scenariosFolder?: string | undefined;
  /** "Sign in through Steam": Steam's OpenID endpoint and how it is reached. */
  steamOpenId: SteamOpenIdSettings;
}

/** The routes, on the runtime the app made (`createRuntime`); the sandbox's with the sandbox on. */
export function registerRoutes(app: FastifyInstance, runtime: Runtime, options: RouteOptions): void {
  registerGetBalance(app);
  registerListLedgerEntries(app);
  registerListEvents(app, runtime.eventLog);
  registerWebhookRoutes(app);
  registerGetBuyOrderStatus(app);
  registerSetBuyOrderStatus(app);
  registerGetPlatformInventory(app);
  registerUploadPlatformCookies(app);
  registerSetupPlatformAccount(app);
  registerSellOrderItems(app);
  registerGetOnSale(app);
  registerSellerTradeRoutes(app);
  registerPurchaseRoutes(app);
  registerBuyOrderRoutes(app);
  registerGetBuyOrderBook(app);
  registerGoodsPageRoutes(app);
  registerGetInspectSkins(app);
  registerGoodsBuyRoutes(app);
  registerWebBuyOrderRoutes(app);
  registerBillOrderRoutes(app);
  registerListCatalogGoods(app, runtime.catalogs, runtime.visitorSearches);
  registerGoodsBookmarks(app, runtime.catalogs);
  registerMarketDataRoutes(app, runtime.catalogs, runtime.visitorSearches);
  registerGetMarketItems(app, runtime.prices);
  registerPriceRoutes(app, runtime.prices);
  registerGetEnterpriseSellOrders(app);

  registerLogin(app, options);
  registerSteamSignIn(app, options);
  registerLogout(app);
  registerAccountsForPeople(app);
  registerStaffSessionRoutes(app, options);
  registerStaffOperationRoutes(app);
  registerStaffMoneyRoutes(app);
  registerGetUserInfo(app);
  registerWebProbes(app);
  registerWebInventoryRoutes(app);
  registerWebOnSale(app);
  registerWebSellOrderWrites(app);
  registerWebDeliveryRoutes(app);
  registerWebSellHistory(app);

  if (runtime.sandboxClock) {
    registerSandboxCreateUser(app);
    registerSandboxUsers(app, runtime.eventLog);
    registerSandboxTokens(app, runtime.limiterStore);
    registerSandboxFunds(app);
    registerSandboxSettings(app);
    registerSandboxWorld(app, runtime.sandboxClock, runtime.eventLog);
    registerSandboxPlatformAccounts(app);
    registerSandboxPlatformItems(app);
    registerSandboxPlatformOffers(app);
    registerSandboxPlatformFaults(app);
    registerSandboxBuyOrderRoutes(app);
    registerSandboxLiquidity(app);
    registerSandboxWebhooks(app);
    registerSandboxMails(app);
    if (runtime.simulation) registerSandboxSimulation(app, runtime.simulation, options.scenariosFolder);
  }
}
