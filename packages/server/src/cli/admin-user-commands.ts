import { Command, Option } from "commander";
import { execute, positiveInteger, type AccessLevelChoice } from "./command-helpers.ts";

const when = (seconds: number | null) =>
  seconds === null ? "never" : new Date(seconds * 1000).toISOString();

/** `skinmarket admin user create|list|show`: the marketplace's users. */
export function addUserCommands(admin: Command): void {
  const user = admin.command("user").description("marketplace users");
  user
    .command("create")
    .description("create a user with a password and a first API token")
    .option("--nickname <name>", "nickname (default: generated)")
    .addOption(
      new Option("--access-level <level>", "access level").choices(["developer", "enterprise", "none"]),
    )
    .option("--password <password>", "password for web sign-in, at least 8 characters (default: generated)")
    .action(async function (this: Command) {
      const { nickname, accessLevel, password } = this.opts<{
        nickname?: string;
        accessLevel?: AccessLevelChoice;
        password?: string;
      }>();
      await execute(
        this,
        (client) =>
          client.createUser({
            ...(nickname ? { nickname } : {}),
            ...(accessLevel ? { access_level: accessLevel } : {}),
            ...(password ? { password } : {}),
          }),
        (answer) =>
          [
            `user ${answer.user_id} (${answer.nickname}, ${answer.access_level})`,
            `password: ${answer.password}`,
            `token ${answer.token_id}: ${answer.token}`,
          ].join("\n"),
      );
    });
  user
    .command("list")
    .description("list users, oldest first, a page at a time")
    .option("--page <n>", "page number", (value) => positiveInteger("--page", value), 1)
    .option("--page-size <n>", "users per page (1-500)", (value) => positiveInteger("--page-size", value), 50)
    .action(async function (this: Command) {
      const { page, pageSize } = this.opts<{ page: number; pageSize: number }>();
      await execute(
        this,
        (client) => client.listUsers({ page_num: page, page_size: pageSize }),
        (answer) =>
          [
            ...answer.items.map((row) => `user ${row.user_id}  ${row.nickname}  ${row.access_level}`),
            `page ${answer.page_num} of ${answer.total_page}, ${answer.total_count} users`,
          ].join("\n"),
      );
    });
  user
    .command("show <user_id>")
    .description("show a user: settings, balances, API tokens (by prefix) and platform accounts")
    .action(async function (this: Command, userId: string) {
      await execute(
        this,
        (client) => client.getUser(userId),
        (answer) =>
          [
            `user ${answer.user_id} (${answer.nickname}, ${answer.access_level}), created ${when(answer.created_at)}`,
            `buy orders ${answer.buy_order_status}, auto offline ${answer.buy_order_auto_offline ? "on" : "off"}`,
            `balance ${answer.balances.balance}  margin ${answer.balances.margin}  wallet ${answer.balances.wallet}  escrow ${answer.balances.escrow}`,
            ...answer.tokens.map(
              (token) =>
                `token ${token.token_id}: ${token.prefix}..., last used ${when(token.last_used_at)}` +
                (token.revoked_at === null ? "" : `, revoked ${when(token.revoked_at)}`),
            ),
            ...answer.platform_accounts.map(
              (account) =>
                `platform account ${account.platformid}, cookies ${account.cookie_state ?? "not uploaded"}` +
                (account.trade_url ? `, trade URL ${account.trade_url}` : ""),
            ),
          ].join("\n"),
      );
    });
}
