import { formatMoney, sandboxGetUser, sandboxListUserEvents, sandboxListUsers } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getUser } from "../../../domain/accounts/get-user.ts";
import { listUsers } from "../../../domain/accounts/list-users.ts";
import type { EventLog } from "../../../domain/events/event-log.ts";
import { listUserEvents } from "../../../domain/events/read-events.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxUsers(app: FastifyInstance, eventLog: EventLog): void {
  registerOperation(app, sandboxListUserEvents, ({ ctx, params, query }) =>
    listUserEvents(ctx, Number(params.user_id), query, eventLog),
  );

  registerOperation(app, sandboxListUsers, ({ ctx, query }) =>
    listUsers(ctx, { pageNum: query.page_num, pageSize: query.page_size }),
  );

  registerOperation(app, sandboxGetUser, async ({ ctx, params }) => {
    const found = await getUser(ctx, { userId: Number(params.user_id) });
    if (!found.ok) return found;
    const user = found.value;
    return ok({
      user_id: String(user.userId),
      nickname: user.nickname,
      access_level: user.accessLevel,
      created_at: user.createdAt,
      buy_order_status: user.buyOrderStatus,
      buy_order_auto_offline: user.buyOrderAutoOffline,
      balances: {
        balance: formatMoney(user.balances.balance),
        margin: formatMoney(user.balances.margin),
        wallet: formatMoney(user.balances.wallet),
        escrow: formatMoney(user.balances.escrow),
      },
      tokens: user.tokens.map((token) => ({
        token_id: String(token.tokenId),
        prefix: token.prefix,
        created_at: token.createdAt,
        last_used_at: token.lastUsedAt,
        revoked_at: token.revokedAt,
      })),
      platform_accounts: user.platformAccounts.map((account) => ({
        platformid: account.platformid,
        trade_url: account.tradeUrl,
        bound_at: account.boundAt,
        cookie_state: account.cookieState,
      })),
    });
  });
}
