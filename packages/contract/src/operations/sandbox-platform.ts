import { Type } from "typebox";
import {
  GoodsId,
  IdString,
  MarketHashName,
  PageNum,
  PageSize,
  StrictObject,
  Text,
  UnixSeconds,
} from "../common.ts";
import { MoneyString } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { AssetInfo } from "../records.ts";
import { PlatformId } from "./platform.ts";

/** The sandbox platform (docs/design/platform-and-sandbox.md#game-platform-and-the-sandbox): accounts, items, cookies and trade offers. */
const sandbox = { access: "sandbox_admin", envelope: "sandbox", tags: ["Sandbox platform"] } as const;

const AccountParams = StrictObject({ platformid: PlatformId });
const OfferParams = StrictObject({
  tradeofferid: Type.String({ pattern: "^\\d{1,15}$", description: "a trade offer id of at most 15 digits" }),
});

export const SandboxPlatformAccount = Type.Object({
  platformid: Type.String(),
  trade_url: Type.String(),
  inventory_public: Type.Boolean(),
  limited: Type.Boolean(),
  auto_accept: Type.Boolean(),
  api_key_registered: Type.Boolean(),
  item_count: Type.Integer(),
  user_id: Type.Union([IdString, Type.Null()]),
});

export const SandboxTradeOffer = Type.Object({
  tradeofferid: Type.String(),
  sender: Type.String(),
  receiver: Type.String(),
  assetids: Type.Array(Type.String()),
  items_from: Type.Enum(["sender", "receiver"], {
    description: "whose items `assetids` are: the sender gives them, or asks the receiver for them",
  }),
  state: Type.Enum(["active", "accepted", "declined", "cancelled", "expired", "reverted"], {
    description: "`reverted`: the platform reversed the accepted trade inside its protection window",
  }),
  message: Type.String(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  expires_at: UnixSeconds,
  reversible_until: Type.Union([UnixSeconds, Type.Null()], {
    description:
      "An accepted offer's end of trade protection (`TRADE_PROTECTION_HOURS`): the platform reverses its trade only before it; null before acceptance",
  }),
  received_assetids: Type.Optional(Type.Record(Type.String(), Type.String())),
});

const Cookies = Type.String({
  description: "JSON-encoded cookies, ready for platform/cookie's platform_cookies",
});

export const sandboxCreatePlatformAccount = defineOperation({
  ...sandbox,
  id: "sandboxCreatePlatformAccount",
  method: "POST",
  path: "/sandbox/platform/accounts",
  summary: "Creates a platform account (bound to a user when user_id is given) with a first login session",
  body: StrictObject({ user_id: Type.Optional(IdString) }),
  response: Type.Object({ platformid: Type.String(), trade_url: Type.String(), cookies: Cookies }),
});

export const sandboxGetPlatformAccount = defineOperation({
  ...sandbox,
  id: "sandboxGetPlatformAccount",
  method: "GET",
  path: "/sandbox/platform/accounts/:platformid",
  summary: "A platform account's settings, item count and bound user",
  params: AccountParams,
  response: SandboxPlatformAccount,
});

export const sandboxUpdatePlatformAccount = defineOperation({
  ...sandbox,
  id: "sandboxUpdatePlatformAccount",
  method: "PUT",
  path: "/sandbox/platform/accounts/:platformid/settings",
  summary: "Makes the inventory public or private, or the account limited (no API key)",
  params: AccountParams,
  body: StrictObject({
    inventory_public: Type.Optional(Type.Boolean()),
    limited: Type.Optional(Type.Boolean()),
  }),
  response: SandboxPlatformAccount,
});

export const sandboxSetAutoAccept = defineOperation({
  ...sandbox,
  id: "sandboxSetAutoAccept",
  method: "PUT",
  path: "/sandbox/platform/accounts/:platformid/auto_accept",
  summary: "Accept every incoming trade offer at once (or stop doing so)",
  params: AccountParams,
  body: StrictObject({ enabled: Type.Boolean() }),
  response: SandboxPlatformAccount,
});

export const sandboxBindPlatformAccount = defineOperation({
  ...sandbox,
  id: "sandboxBindPlatformAccount",
  method: "POST",
  path: "/sandbox/platform/accounts/:platformid/bind",
  summary: "Binds the platform account to a marketplace user",
  params: AccountParams,
  body: StrictObject({ user_id: IdString }),
  response: Type.Object({ platformid: Type.String(), user_id: IdString }),
});

export const sandboxUnbindPlatformAccount = defineOperation({
  ...sandbox,
  id: "sandboxUnbindPlatformAccount",
  method: "POST",
  path: "/sandbox/platform/accounts/:platformid/unbind",
  summary: "Unbinds the platform account from its user; stored cookies and the inventory copy are dropped",
  params: AccountParams,
  response: Type.Object({ platformid: Type.String(), user_id: Type.Null() }),
});

export const sandboxIssuePlatformCookies = defineOperation({
  ...sandbox,
  id: "sandboxIssuePlatformCookies",
  method: "POST",
  path: "/sandbox/platform/accounts/:platformid/cookies",
  summary: "A fresh platform login: new session cookies",
  params: AccountParams,
  response: Type.Object({ cookies: Cookies }),
});

export const sandboxExpirePlatformCookies = defineOperation({
  ...sandbox,
  id: "sandboxExpirePlatformCookies",
  method: "POST",
  path: "/sandbox/platform/accounts/:platformid/cookies/expire",
  summary: "Every session cookie issued for the account stops being valid",
  params: AccountParams,
  response: Type.Object({ expired: Type.Integer() }),
});

export const sandboxShowSteamSecrets = defineOperation({
  ...sandbox,
  id: "sandboxShowSteamSecrets",
  method: "GET",
  path: "/sandbox/platform/accounts/:platformid/steam",
  summary:
    "The secrets a bot holds for the account on the Steam face: login name, password, shared_secret (Steam Guard codes), identity_secret (confirmations); drawn on first ask",
  params: AccountParams,
  response: Type.Object({
    platformid: Type.String(),
    account_name: Type.String(),
    password: Type.String(),
    shared_secret: Type.String(),
    identity_secret: Type.String(),
  }),
});

const StickerRequest = StrictObject({
  goods_id: Type.Optional(GoodsId),
  market_hash_name: Type.Optional(MarketHashName),
  slot: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
  wear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
});

export const sandboxGrantItems = defineOperation({
  ...sandbox,
  id: "sandboxGrantItems",
  method: "POST",
  path: "/sandbox/platform/accounts/:platformid/items",
  summary: "Puts new items of one goods into the account's inventory",
  params: AccountParams,
  body: StrictObject({
    goods_id: Type.Optional(GoodsId),
    market_hash_name: Type.Optional(MarketHashName),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    paintwear: Type.Optional(
      Type.String({
        pattern: "^(0(\\.\\d{1,20})?|1(\\.0{1,20})?)$",
        description: "a decimal from 0 to 1, such as 0.1523",
      }),
    ),
    paintseed: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    stickers: Type.Optional(Type.Array(StickerRequest, { maxItems: 5 })),
    nametag: Type.Optional(Type.Union([Text({ minLength: 1, maxLength: 20 }), Type.Null()])),
    cooldown_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 })),
    random_extras: Type.Optional(
      Type.Boolean({ description: "random stickers, charms and name tags on some weapons (default true)" }),
    ),
  }),
  response: Type.Object({ assets: Type.Array(AssetInfo) }),
});

export const sandboxListOffers = defineOperation({
  ...sandbox,
  id: "sandboxListOffers",
  method: "GET",
  path: "/sandbox/platform/offers",
  summary: "Trade offers, newest first, a page at a time, optionally of one account or one user",
  description:
    "`platformid` keeps the offers that account sent or received; `user_id` those of every platform account bound to that marketplace user (none when it has none bound). A page holds at most 500.",
  querystring: Type.Object({
    platformid: Type.Optional(PlatformId),
    user_id: Type.Optional(IdString),
    page_num: PageNum,
    page_size: PageSize(500, 500),
  }),
  response: Type.Object({
    items: Type.Array(SandboxTradeOffer),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
  }),
});

export const sandboxCreateOffer = defineOperation({
  ...sandbox,
  id: "sandboxCreateOffer",
  method: "POST",
  path: "/sandbox/platform/offers",
  summary: "Sends a trade offer from an account to the owner of a trade URL, as that player would",
  body: StrictObject({
    platformid: PlatformId,
    trade_url: Text({ maxLength: 200 }),
    assetids: Type.Array(
      Type.String({ pattern: "^\\d{1,15}$", description: "an assetid of at most 15 digits" }),
      {
        minItems: 1,
        maxItems: 256,
      },
    ),
    items_from: Type.Optional(
      Type.Enum(["sender", "receiver"], {
        description: "`receiver`: the offer asks for the receiver's items instead of giving the sender's",
        default: "sender",
      }),
    ),
    message: Type.Optional(Text({ maxLength: 128, multiline: true })),
  }),
  response: SandboxTradeOffer,
});

export const sandboxAcceptOffer = defineOperation({
  ...sandbox,
  id: "sandboxAcceptOffer",
  method: "POST",
  path: "/sandbox/platform/offers/:tradeofferid/accept",
  summary: "The receiver accepts: the items move to it under new assetids, in trade cooldown",
  params: OfferParams,
  response: SandboxTradeOffer,
});

export const sandboxDeclineOffer = defineOperation({
  ...sandbox,
  id: "sandboxDeclineOffer",
  method: "POST",
  path: "/sandbox/platform/offers/:tradeofferid/decline",
  summary: "The receiver declines the offer",
  params: OfferParams,
  response: SandboxTradeOffer,
});

/** The sandbox platform's fault switch: while it is down, inventories and trade offers fail. */
export const PlatformFault = Type.Object({
  down: Type.Boolean(),
  since: Type.Union([Type.Integer(), Type.Null()], {
    description: "When it went down (Unix seconds, sandbox clock)",
  }),
  until: Type.Union([Type.Integer(), Type.Null()], {
    description: "When it comes back by itself (Unix seconds, sandbox clock); null: when switched back up",
  }),
});

export const sandboxGetPlatformFault = defineOperation({
  ...sandbox,
  id: "sandboxGetPlatformFault",
  method: "GET",
  path: "/sandbox/platform/fault",
  summary: "Whether the sandbox platform is down (an outage switched on here or by a scenario)",
  response: PlatformFault,
});

export const sandboxSetPlatformFault = defineOperation({
  ...sandbox,
  id: "sandboxSetPlatformFault",
  method: "PUT",
  path: "/sandbox/platform/fault",
  summary: "Takes the sandbox platform down (inventory reads and trade offers fail) or brings it back",
  description:
    "While down, reading an inventory, sending, answering, cancelling or looking up a trade offer fails with " +
    "`Invalid State` and a message saying the platform is unavailable; trades in flight wait and settle once it " +
    "is back. `seconds` ends the outage by itself after that much sandbox time.",
  body: StrictObject({
    down: Type.Boolean(),
    seconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 30 * 86_400,
        description: "The outage ends by itself after this long",
      }),
    ),
  }),
  response: PlatformFault,
});

export const sandboxRollbackTrade = defineOperation({
  ...sandbox,
  id: "sandboxRollbackTrade",
  method: "POST",
  path: "/sandbox/trades/:trade_id/rollback",
  summary:
    "The platform reverses a delivered trade: the item goes back to the seller, the money back to the buyer",
  description:
    "A `SUCCESS` trade becomes `FAIL` with `rollback_by` `platform_rollback` (event `trade.rolled_back`): the " +
    "item leaves the buyer's account for the seller's under a new assetid, and one journal entry takes the " +
    "seller's income from their balance and the fee from the fee account and pays the buyer back into the " +
    "accounts that paid. A seller whose balance no longer holds the income is refused (`Insufficient Balance`), " +
    "as is an item the buyer no longer holds or has in an unfinished trade, or a trade whose protection window " +
    "(`TRADE_PROTECTION_HOURS`) has ended (`Invalid State`); nothing changes then. The trade's offer becomes " +
    "`reverted` (Steam's `ETradeOfferState` 12).",
  params: StrictObject({ trade_id: IdString }),
  response: Type.Object({
    trade_id: Type.String(),
    state: Type.Literal("FAIL"),
    rollback_by: Type.String(),
    returned_assetid: Type.String({ description: "The item's new assetid in the seller's account" }),
    refunded: MoneyString,
    taken_from_seller: MoneyString,
  }),
});
