import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { requireUser } from "../users/require-user.ts";
import { readUserBalances, type UserBalances } from "../wallet/ledger.ts";
import { findUsers, type FoundUser } from "./find-users.ts";
import { requireStaff } from "./staff-roles.ts";

export interface UserPage {
  user: FoundUser;
  balances: UserBalances;
  trades: Array<{
    tradeId: number;
    side: "buyer" | "seller";
    goodsId: number;
    price: number;
    state: string;
    createdAt: Date;
  }>;
  signIns: Array<{ signedInAt: Date; ip: string; userAgent: string; method: string }>;
  staffActions: Array<{
    actionId: number;
    actedAt: Date;
    operation: string;
    reason: string;
    staffEmail: string | null;
  }>;
}

const RECENT = 20;

/**
 * What staff see of one user (every role): balances, the 20 most recent trades either side, the
 * 20 most recent sign-ins, and the 20 most recent staff actions on them.
 */
export async function readUserPage(ctx: DomainContext, input: { userId: number }): Promise<Result<UserPage>> {
  const caller = requireStaff(ctx, "user.read");
  if (!caller.ok) return caller;
  const exists = await requireUser(ctx, input.userId);
  if (!exists.ok) return exists;
  const found = await findUsers(ctx, { query: String(input.userId) });
  if (!found.ok) return found;
  const user = found.value.find((candidate) => candidate.userId === input.userId)!;
  const trades = await ctx.db
    .selectFrom("trades")
    .select(["trade_id", "buyer_id", "goods_id", "price", "state", "created_at"])
    .where((eb) => eb.or([eb("buyer_id", "=", input.userId), eb("seller_id", "=", input.userId)]))
    .orderBy("trade_id", "desc")
    .limit(RECENT)
    .execute();
  const signIns = await ctx.db
    .selectFrom("sign_ins")
    .select(["signed_in_at", "ip", "user_agent", "method"])
    .where("user_id", "=", input.userId)
    .orderBy("sign_in_id", "desc")
    .limit(RECENT)
    .execute();
  const actions = await ctx.db
    .selectFrom("staff_actions")
    .leftJoin("staff", "staff.staff_id", "staff_actions.staff_id")
    .select([
      "staff_actions.action_id",
      "staff_actions.acted_at",
      "staff_actions.operation",
      "staff_actions.reason",
      "staff.email",
    ])
    .where("staff_actions.subject", "=", `user:${input.userId}`)
    .orderBy("staff_actions.action_id", "desc")
    .limit(RECENT)
    .execute();
  return ok({
    user,
    balances: await readUserBalances(ctx, input.userId),
    trades: trades.map((trade) => ({
      tradeId: trade.trade_id,
      side: trade.buyer_id === input.userId ? ("buyer" as const) : ("seller" as const),
      goodsId: trade.goods_id,
      price: trade.price,
      state: trade.state,
      createdAt: trade.created_at,
    })),
    signIns: signIns.map((row) => ({
      signedInAt: row.signed_in_at,
      ip: row.ip,
      userAgent: row.user_agent,
      method: row.method,
    })),
    staffActions: actions.map((row) => ({
      actionId: row.action_id,
      actedAt: row.acted_at,
      operation: row.operation,
      reason: row.reason,
      staffEmail: row.email,
    })),
  });
}
