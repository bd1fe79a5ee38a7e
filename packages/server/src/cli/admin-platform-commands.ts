import { Command, Option } from "commander";
import { execute, parseDuration, positiveInteger, UsageError } from "./command-helpers.ts";

type OnOff = "on" | "off";

function describeAccount(account: {
  platformid: string;
  trade_url: string;
  inventory_public: boolean;
  limited: boolean;
  auto_accept: boolean;
  item_count: number;
  user_id: string | null;
}): string {
  return [
    `platform account ${account.platformid} (${account.user_id ? `bound to user ${account.user_id}` : "not bound"})`,
    `trade URL: ${account.trade_url}`,
    `inventory ${account.inventory_public ? "public" : "private"}, ${account.item_count} items` +
      `${account.limited ? ", limited" : ""}${account.auto_accept ? ", accepts offers automatically" : ""}`,
  ].join("\n");
}

function describeOffer(offer: {
  tradeofferid: string;
  sender: string;
  receiver: string;
  assetids: string[];
  state: string;
}): string {
  return `offer ${offer.tradeofferid}: ${offer.sender} -> ${offer.receiver}, ${offer.assetids.length} item(s), ${offer.state}`;
}

/** `skinmarket admin platform|items|offers ...`: the sandbox platform from the command line. */
export function addPlatformCommands(admin: Command): void {
  const platform = admin.command("platform").description("sandbox platform accounts");
  platform
    .command("create")
    .description("create a platform account; prints its id, trade URL and login cookies")
    .option("--user <user_id>", "bind it to this marketplace user")
    .action(async function (this: Command) {
      const { user } = this.opts<{ user?: string }>();
      await execute(
        this,
        (client) => client.createPlatformAccount(user),
        (answer) =>
          [
            `platform account ${answer.platformid}`,
            `trade URL: ${answer.trade_url}`,
            `cookies: ${answer.cookies}`,
          ].join("\n"),
      );
    });
  platform
    .command("show <platformid>")
    .description("show a platform account")
    .action(async function (this: Command, platformid: string) {
      await execute(this, (client) => client.getPlatformAccount(platformid), describeAccount);
    });
  platform
    .command("steam <platformid>")
    .description("show the account's Steam secrets, as its bot holds them on the Steam face")
    .action(async function (this: Command, platformid: string) {
      await execute(
        this,
        (client) => client.steamSecrets(platformid),
        (secrets) =>
          [
            `platform account ${secrets.platformid} on the Steam face`,
            `account name: ${secrets.account_name}`,
            `password: ${secrets.password}`,
            `shared_secret: ${secrets.shared_secret}`,
            `identity_secret: ${secrets.identity_secret}`,
          ].join("\n"),
      );
    });
  platform
    .command("settings <platformid>")
    .description(
      "make the inventory public or private, the account limited, or accepting offers automatically",
    )
    .addOption(new Option("--public <on|off>").choices(["on", "off"]))
    .addOption(new Option("--limited <on|off>").choices(["on", "off"]))
    .addOption(new Option("--auto-accept <on|off>").choices(["on", "off"]))
    .action(async function (this: Command, platformid: string) {
      const options = this.opts<{ public?: OnOff; limited?: OnOff; autoAccept?: OnOff }>();
      await execute(
        this,
        async (client) => {
          if (options.autoAccept) await client.setAutoAccept(platformid, options.autoAccept === "on");
          return client.updatePlatformAccount(platformid, {
            ...(options.public ? { inventory_public: options.public === "on" } : {}),
            ...(options.limited ? { limited: options.limited === "on" } : {}),
          });
        },
        describeAccount,
      );
    });
  platform
    .command("bind <platformid> <user_id>")
    .description("bind a platform account to a marketplace user")
    .action(async function (this: Command, platformid: string, userId: string) {
      await execute(
        this,
        (client) => client.bindPlatformAccount(platformid, userId),
        (answer) => `${answer.platformid} bound to user ${answer.user_id}`,
      );
    });
  platform
    .command("unbind <platformid>")
    .description("unbind a platform account")
    .action(async function (this: Command, platformid: string) {
      await execute(
        this,
        (client) => client.unbindPlatformAccount(platformid),
        (answer) => `${answer.platformid} unbound`,
      );
    });
  platform
    .command("login <platformid>")
    .description("issue fresh session cookies (a new platform login)")
    .action(async function (this: Command, platformid: string) {
      await execute(
        this,
        (client) => client.issuePlatformCookies(platformid),
        (answer) => answer.cookies,
      );
    });
  platform
    .command("expire-cookies <platformid>")
    .description("make every issued session cookie of the account expired")
    .action(async function (this: Command, platformid: string) {
      await execute(
        this,
        (client) => client.expirePlatformCookies(platformid),
        (answer) => `${answer.expired} session(s) expired`,
      );
    });

  admin
    .command("grant <platformid>")
    .description("put new items of one goods into a platform account's inventory")
    .option("--goods-id <id>", "goods id", (value) => positiveInteger("--goods-id", value))
    .option("--name <market_hash_name>", "market hash name, e.g. 'AK-47 | Redline (Field-Tested)'")
    .option("--count <n>", "how many (1-1000)", (value) => positiveInteger("--count", value))
    .option("--paintwear <decimal>", "exact wear, inside the goods' range")
    .option("--paintseed <n>", "pattern seed 0-1000", (value) => positiveInteger("--paintseed", value, 0))
    .option("--nametag <text>", "a name tag")
    .option("--cooldown-days <n>", "trade cooldown in days (0-30)", (value) =>
      positiveInteger("--cooldown-days", value, 0),
    )
    .option("--no-extras", "no random stickers, charms or name tags")
    .action(async function (this: Command, platformid: string) {
      const options = this.opts<{
        goodsId?: number;
        name?: string;
        count?: number;
        paintwear?: string;
        paintseed?: number;
        nametag?: string;
        cooldownDays?: number;
        extras: boolean;
      }>();
      if (options.goodsId === undefined && options.name === undefined)
        throw new UsageError("give --goods-id or --name");
      await execute(
        this,
        (client) =>
          client.grantItems(platformid, {
            ...(options.goodsId !== undefined ? { goods_id: options.goodsId } : {}),
            ...(options.name !== undefined ? { market_hash_name: options.name } : {}),
            ...(options.count !== undefined ? { count: options.count } : {}),
            ...(options.paintwear !== undefined ? { paintwear: options.paintwear } : {}),
            ...(options.paintseed !== undefined ? { paintseed: options.paintseed } : {}),
            ...(options.nametag !== undefined ? { nametag: options.nametag } : {}),
            ...(options.cooldownDays !== undefined ? { cooldown_days: options.cooldownDays } : {}),
            random_extras: options.extras,
          }),
        (answer) =>
          answer.assets
            .map(
              (asset) =>
                `${asset.assetid}  goods ${asset.goods_id}${asset.paintwear ? `  wear ${asset.paintwear}` : ""}`,
            )
            .join("\n"),
      );
    });

  const describeFault = (fault: { down: boolean; since: number | null; until: number | null }) =>
    !fault.down
      ? "the platform is up"
      : `the platform is down since ${new Date(fault.since! * 1000).toISOString()}` +
        (fault.until === null
          ? " until brought back up"
          : ` until ${new Date(fault.until * 1000).toISOString()}`);
  platform
    .command("down")
    .description("take the sandbox platform down: inventory reads and trade offers fail, trades wait")
    .option("--for <duration>", "end the outage by itself after this long (sandbox time: 90, 30m, 2h, 1d)")
    .action(async function (this: Command) {
      const options = this.opts<{ for?: string }>();
      const seconds = options.for === undefined ? undefined : parseDuration(options.for);
      await execute(
        this,
        (client) => client.setPlatformFault({ down: true, ...(seconds !== undefined ? { seconds } : {}) }),
        describeFault,
      );
    });
  platform
    .command("up")
    .description("bring the sandbox platform back up")
    .action(async function (this: Command) {
      await execute(this, (client) => client.setPlatformFault({ down: false }), describeFault);
    });
  platform
    .command("fault")
    .description("whether the sandbox platform is down")
    .action(async function (this: Command) {
      await execute(this, (client) => client.getPlatformFault(), describeFault);
    });

  const trades = admin.command("trades").description("trades as the sandbox platform sees them");
  trades
    .command("rollback <trade_id>")
    .description(
      "the platform reverses a delivered trade: the item back to the seller, the money back to the buyer",
    )
    .action(async function (this: Command, tradeId: string) {
      await execute(
        this,
        (client) => client.rollbackTrade(tradeId),
        (answer) =>
          `trade ${answer.trade_id} rolled back (${answer.rollback_by}): ${answer.refunded} back to the buyer, ` +
          `${answer.taken_from_seller} taken from the seller, the item back as ${answer.returned_assetid}`,
      );
    });

  const offers = admin.command("offers").description("sandbox trade offers");
  offers
    .command("list", { isDefault: true })
    .description("list trade offers, newest first")
    .option("--platformid <id>", "only this account's offers")
    .action(async function (this: Command) {
      const { platformid } = this.opts<{ platformid?: string }>();
      await execute(
        this,
        (client) => client.listOffers(platformid),
        (answer) => answer.items.map(describeOffer).join("\n") || "no offers",
      );
    });
  offers
    .command("send <platformid> <trade_url> <assetids...>")
    .description("send items from an account to the owner of a trade URL")
    .action(async function (this: Command, platformid: string, tradeUrl: string, assetids: string[]) {
      await execute(
        this,
        (client) => client.createOffer({ platformid, trade_url: tradeUrl, assetids }),
        describeOffer,
      );
    });
  for (const [name, verb] of [
    ["accept", "accept"],
    ["decline", "decline"],
  ] as const) {
    offers
      .command(`${name} <tradeofferid>`)
      .description(`${verb} an offer as its receiver`)
      .action(async function (this: Command, tradeofferid: string) {
        await execute(
          this,
          (client) =>
            name === "accept" ? client.acceptOffer(tradeofferid) : client.declineOffer(tradeofferid),
          describeOffer,
        );
      });
  }
}
