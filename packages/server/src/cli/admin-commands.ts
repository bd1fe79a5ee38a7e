import { Command, Option } from "commander";
import { addBuyOrderCommands } from "./admin-buy-order-commands.ts";
import { addPlatformCommands } from "./admin-platform-commands.ts";
import { addUserCommands } from "./admin-user-commands.ts";
import {
  execute,
  parseDuration,
  UsageError,
  withServerOptions,
  type AccessLevelChoice,
} from "./command-helpers.ts";

/**
 * `skinmarket admin ...`: the sandbox API from the command line. It talks to a running server
 * over HTTP, because the embedded database belongs to that server while it runs.
 */
export function adminCommand(): Command {
  const admin = new Command("admin").description(
    "drive the sandbox of a running server: users, tokens, funds, settings, clock, jobs, liquidity, " +
      "reset, platform accounts, items, trade offers, buy orders",
  );
  withServerOptions(admin);

  addUserCommands(admin);

  const token = admin.command("token").description("API tokens");
  token
    .command("create <user_id>")
    .description("issue another API token for a user")
    .action(async function (this: Command, userId: string) {
      await execute(
        this,
        (client) => client.createToken(userId),
        (answer) => `token ${answer.token_id}: ${answer.token}`,
      );
    });
  token
    .command("revoke <token_id>")
    .description("revoke an API token")
    .action(async function (this: Command, tokenId: string) {
      await execute(
        this,
        (client) => client.revokeToken(tokenId),
        (answer) => `token ${answer.token_id} revoked`,
      );
    });
  token
    .command("reset-limits <token_id>")
    .description("forget a token's counts against every rate limit")
    .action(async function (this: Command, tokenId: string) {
      await execute(
        this,
        (client) => client.resetTokenLimits(tokenId),
        (answer) => `token ${answer.token_id}: rate limits reset`,
      );
    });

  for (const [name, method, verb] of [
    ["deposit", "fundAccount", "deposit into"],
    ["withdraw", "withdrawFunds", "withdraw from"],
  ] as const) {
    admin
      .command(`${name} <user_id> <account> <amount>`)
      .description(`${verb} a user's balance, margin or wallet (amount in yuan)`)
      .action(async function (this: Command, userId: string, account: string, amount: string) {
        if (account !== "balance" && account !== "margin" && account !== "wallet") {
          throw new UsageError("account must be balance, margin or wallet");
        }
        if (!/^\d+(\.\d{1,2})?$/.test(amount)) {
          throw new UsageError(`amount "${amount}": give yuan as a positive number with at most 2 decimals`);
        }
        await execute(this, (client) => client[method](userId, { account, amount }), describeBalances);
      });
  }

  admin
    .command("balances <user_id>")
    .description("show a user's balances")
    .action(async function (this: Command, userId: string) {
      await execute(this, (client) => client.getBalances(userId), describeBalances);
    });

  admin
    .command("settings <user_id>")
    .description("change a user's buy-order status, automatic offline or access level")
    .addOption(new Option("--buy-order-status <status>").choices(["online", "offline"]))
    .addOption(new Option("--auto-offline <on|off>").choices(["on", "off"]))
    .addOption(new Option("--access-level <level>").choices(["developer", "enterprise", "none"]))
    .addOption(
      new Option("--card-declines <on|off>", "the sandbox card declines payments").choices(["on", "off"]),
    )
    .action(async function (this: Command, userId: string) {
      const options = this.opts<{
        buyOrderStatus?: "online" | "offline";
        autoOffline?: "on" | "off";
        accessLevel?: AccessLevelChoice;
        cardDeclines?: "on" | "off";
      }>();
      await execute(
        this,
        (client) =>
          client.updateUserSettings(userId, {
            ...(options.buyOrderStatus ? { buy_order_status: options.buyOrderStatus } : {}),
            ...(options.autoOffline ? { buy_order_auto_offline: options.autoOffline === "on" } : {}),
            ...(options.accessLevel ? { access_level: options.accessLevel } : {}),
            ...(options.cardDeclines ? { card_declines: options.cardDeclines === "on" } : {}),
          }),
        (answer) =>
          `user ${answer.user_id}: ${answer.access_level}, buy orders ${answer.buy_order_status}, ` +
          `auto offline ${answer.buy_order_auto_offline ? "on" : "off"}`,
      );
    });

  const clock = admin.command("clock").description("the marketplace clock");
  clock
    .command("show", { isDefault: true })
    .description("show the marketplace time")
    .action(async function (this: Command) {
      await execute(this, (client) => client.getClock(), describeClock);
    });
  clock
    .command("advance <duration>")
    .description("move the clock forward: seconds, or a number with s, m, h or d (e.g. 7d)")
    .action(async function (this: Command, duration: string) {
      const seconds = parseDuration(duration);
      await execute(this, (client) => client.advanceClock(seconds), describeClock);
    });

  admin
    .command("jobs")
    .description("run every due job now")
    .action(async function (this: Command) {
      await execute(
        this,
        (client) => client.runJobs(),
        (answer) => answer.jobs.map((job) => `${job.name}: ${job.processed}`).join("\n") || "no jobs",
      );
    });

  admin
    .command("liquidity")
    .description("recompute every goods' liquidity rank from the last 30 days' trades now")
    .action(async function (this: Command) {
      await execute(
        this,
        (client) => client.recomputeLiquidityRanks(),
        (answer) =>
          `liquidity ranks computed at ${new Date(answer.computed_at * 1000).toISOString()}: ` +
          `${answer.ranked_goods} goods traded in the last 30 days`,
      );
    });

  admin
    .command("reset")
    .description("empty the world except the catalog")
    .requiredOption("--yes", "confirm: this deletes every user, token, balance and record")
    .action(async function (this: Command) {
      await execute(
        this,
        (client) => client.reset(),
        () => "world reset",
      );
    });

  addPlatformCommands(admin);
  addBuyOrderCommands(admin);
  return admin;
}

function describeBalances(answer: {
  balance: string;
  margin: string;
  wallet: string;
  escrow: string;
}): string {
  return `balance ${answer.balance}  margin ${answer.margin}  wallet ${answer.wallet}  escrow ${answer.escrow}`;
}

function describeClock(answer: { now: number; offset_seconds: number }): string {
  return `${new Date(answer.now * 1000).toISOString()} (${answer.offset_seconds} s ahead of real time)`;
}
