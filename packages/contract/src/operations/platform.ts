import { Type } from "typebox";
import { MoneyInput, PageNum, PageSize, StrictObject, Text, Cs2Game } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { InventoryItem } from "../records.ts";

/** A 64-bit platform account id as a string, `7656119...` (reference: Inventory and account). */
export const PlatformId = Type.String({
  pattern: "^7656119\\d{10}$",
  description: "a 17-digit platform account id starting 7656119",
  examples: ["76561198012345678"],
});

export const INVENTORY_SORTS = [
  "time.asc",
  "time.desc",
  "price.asc",
  "price.desc",
  "paintwear.asc",
  "paintwear.desc",
  "float.asc",
  "float.desc",
] as const;

/** GET /api/market/developer/platform/inventory (reference; parameter names: docs/design/website-account-and-selling-routes.md#the-websites-selling-routes). */
export const getPlatformInventory = defineOperation({
  id: "getPlatformInventory",
  limits: { rate: { points: 60, seconds: 60 } },
  method: "GET",
  path: "/api/market/developer/platform/inventory",
  access: "developer",
  envelope: "official",
  summary: "Lists the items of a platform account bound to the caller",
  tags: ["Inventory and account"],
  querystring: Type.Object({
    game: Cs2Game,
    platformid: PlatformId,
    page_num: PageNum,
    page_size: PageSize(100, 20),
    force: Type.Integer({
      enum: [0, 1],
      default: 0,
      description: "1: refresh from the platform with the stored cookies",
    }),
    min_price: Type.Optional(MoneyInput),
    max_price: Type.Optional(MoneyInput),
    search: Type.Optional(Text({ maxLength: 100, description: "part of the name or market hash name" })),
    min_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    max_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    sort_by: Type.Enum(INVENTORY_SORTS, { default: "time.desc" }),
    state: Type.Enum(["all", "tradable", "cansell", "onsale"], { default: "all" }),
    nametag: Type.Integer({ enum: [0, 1], default: 0, description: "1: only items with a name tag" }),
  }),
  response: Type.Object({
    items: Type.Array(InventoryItem),
    total_count: Type.Integer(),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
  }),
});

/** POST /api/market/developer/platform/cookie (reference). */
export const uploadPlatformCookies = defineOperation({
  id: "uploadPlatformCookies",
  method: "POST",
  path: "/api/market/developer/platform/cookie",
  access: "developer",
  envelope: "official",
  summary: "Uploads the session cookies of a bound platform account; answers whether they are a live session",
  tags: ["Inventory and account"],
  body: StrictObject({
    platformid: PlatformId,
    platform_cookies: Text({
      maxLength: 65_536,
      multiline: true,
      description: "a JSON-encoded array of {domain, key, value}",
    }),
  }),
  response: Type.Object({
    platformid: Type.String(),
    cookie_state: Type.Enum(["valid", "invalid", "expired"]),
  }),
});

const SetupResult = Type.Enum(["success", "fail"]);

/** POST /api/market/developer/platform/setup (reference): each action reports on its own. */
export const setupPlatformAccount = defineOperation({
  id: "setupPlatformAccount",
  method: "POST",
  path: "/api/market/developer/platform/setup",
  access: "developer",
  envelope: "official",
  summary: "Makes a bound account's inventory public, sets its trade URL and registers its API key",
  tags: ["Inventory and account"],
  body: StrictObject({ platformid: PlatformId }),
  response: Type.Object({
    publish_inventory: SetupResult,
    setup_trade_url: SetupResult,
    setup_api_key: SetupResult,
    errors: Type.Record(Type.String(), Type.String()),
  }),
});
