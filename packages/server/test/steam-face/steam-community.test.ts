import assert from "node:assert/strict";
import { get } from "node:https";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import {
  createPlatformAccount,
  describePlatformAccount,
} from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { signInBot, newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

/** The fields of steamcommunity's CEconItem that the tests read. */
interface InventoryItem {
  assetid: string;
  market_hash_name: string;
  tradable: boolean;
  asset_properties?: Array<{ propertyid: number; int_value?: string; float_value?: string }>;
}

/** The community's `steamLoginSecure=...` pair, as a browser sends it back. */
function loginCookie(cookies: string[]): string {
  const login = cookies.find(
    (cookie) => cookie.startsWith("steamLoginSecure=") && cookie.includes("Domain=steamcommunity.com"),
  );
  return login?.split(";")[0] ?? "";
}

function communityPage(
  world: SteamFaceWorld,
  path: string,
  cookie = "",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(`https://steamcommunity.com${path}`, { agent: world.agent, headers: { cookie } }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    }).on("error", reject);
  });
}

describe("the community pages and the inventory, read by steamcommunity unchanged", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let seller: SteamCredentials;
  let assetids: string[];
  before(async () => {
    world = await openSteamFaceWorld({ catalog: true });
    admin = { ...world.ctx, actor: { kind: "admin" } };
    seller = await newSteamAccount(admin);
    const granted = await grantItems(admin, {
      platformid: seller.platformid,
      marketHashName: "AK-47 | Redline (Field-Tested)",
      count: 3,
      paintseed: 661,
    });
    assert.ok(granted.ok, JSON.stringify(granted));
    assetids = granted.value.assets.map((asset) => asset.assetid);
  });
  after(() => world.close());

  test("the own inventory: every item with its description, wear and seed as asset properties", async () => {
    const { community } = await signInBot(world, seller);
    const [items, total] = await new Promise<[InventoryItem[], number]>((resolve, reject) =>
      community.getUserInventoryContents(
        seller.platformid,
        730,
        2,
        false,
        "english",
        (error, inventory, _currency, count) =>
          error ? reject(error) : resolve([inventory as InventoryItem[], count]),
      ),
    );
    assert.equal(total, 3);
    assert.deepEqual(items.map((item) => item.assetid).sort(), [...assetids].sort());
    const [item] = items;
    assert.ok(item);
    assert.equal(item.market_hash_name, "AK-47 | Redline (Field-Tested)");
    assert.equal(item.tradable, true);
    const properties = item.asset_properties;
    assert.equal(properties?.find((property) => property.propertyid === 1)?.int_value, "661");
    assert.match(properties?.find((property) => property.propertyid === 2)?.float_value ?? "", /^0\.\d+/);
  });

  test("pages by start_assetid, more_items and last_assetid", async () => {
    // The account's inventory is private: its owner's session cookie reads it.
    const cookie = loginCookie((await signInBot(world, seller)).cookies);
    const first = JSON.parse(
      (await communityPage(world, `/inventory/${seller.platformid}/730/2?count=2`, cookie)).body,
    );
    assert.equal(first.assets.length, 2);
    assert.equal(first.more_items, 1);
    assert.equal(first.total_inventory_count, 3);
    const second = JSON.parse(
      (
        await communityPage(
          world,
          `/inventory/${seller.platformid}/730/2?count=2&start_assetid=${first.last_assetid}`,
          cookie,
        )
      ).body,
    );
    assert.equal(second.assets.length, 1);
    assert.equal(second.more_items, undefined);
    assert.deepEqual(
      [...first.assets, ...second.assets].map((asset: { assetid: string }) => asset.assetid).sort(),
      [...assetids].sort(),
    );
  });

  test("a private inventory is 403 with the body null, which steamcommunity reports as private", async () => {
    const other = await createPlatformAccount(admin);
    assert.ok(other.ok);
    const view = await describePlatformAccount(admin, other.value.platformid);
    assert.ok(view.ok && !view.value.inventoryPublic);
    const raw = await communityPage(world, `/inventory/${other.value.platformid}/730/2`);
    assert.equal(raw.status, 403);
    assert.equal(raw.body, "null");
    const { community } = await signInBot(world, seller);
    await assert.rejects(
      new Promise((resolve, reject) =>
        community.getUserInventoryContents(other.value.platformid, 730, 2, false, "english", (error) =>
          error ? reject(error) : resolve(undefined),
        ),
      ),
      /This profile is private/,
    );
  });

  test("/my leads to the profile, whose privacy page gives the account's trade URL", async () => {
    const { community } = await signInBot(world, seller);
    const url = await new Promise<string>((resolve, reject) =>
      community.getTradeURL((error, tradeUrl) => (error ? reject(error) : resolve(tradeUrl))),
    );
    const view = await describePlatformAccount(admin, seller.platformid);
    assert.ok(view.ok);
    assert.equal(url, view.value.tradeUrl);
  });

  test("the home page names the signed-in account in g_steamID, and says false when signed out", async () => {
    const cookie = loginCookie((await signInBot(world, seller)).cookies);
    const signedIn = (await communityPage(world, "/", cookie)).body;
    assert.match(signedIn, new RegExp(`g_steamID = "${seller.platformid}";`));
    assert.ok(signedIn.includes(seller.accountName));
    const signedOut = (await communityPage(world, "/")).body;
    assert.match(signedOut, /g_steamID = false;/);
  });
});
