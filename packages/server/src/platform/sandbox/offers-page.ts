import type { DomainContext } from "../../domain/context.ts";
import type { PlatformTradeOffer } from "../../domain/platform/game-platform.ts";
import { ok, type Result } from "../../domain/result.ts";
import { requireUser } from "../../domain/users/require-user.ts";
import { toPlatformOffer } from "./trade-offers.ts";

export interface OffersPageInput {
  /** The offers this platform account sent or received. */
  platformid?: string | undefined;
  /** The offers of every platform account bound to this marketplace user. */
  userId?: number | undefined;
  pageNum: number;
  pageSize: number;
}

/**
 * A page of the sandbox's trade offers, newest first, with how many there are in all: every offer,
 * or those of one account or of one user's bound accounts (the console's table of the chosen user,
 * docs/design/website-console.md#the-console). An account sees an offer it receives only once the sender
 * confirmed it, as the platform shows it; an unknown user is `Not Found`.
 */
export async function listOffersPage(
  ctx: DomainContext,
  input: OffersPageInput,
): Promise<Result<{ offers: PlatformTradeOffer[]; total: number }>> {
  let accounts: string[] | undefined;
  if (input.userId !== undefined) {
    const user = await requireUser(ctx, input.userId);
    if (!user.ok) return user;
    const bound = await ctx.db
      .selectFrom("bound_platform_accounts")
      .select("platformid")
      .where("user_id", "=", input.userId)
      .execute();
    accounts = bound.map((row) => row.platformid);
  }
  if (input.platformid !== undefined)
    accounts = accounts ? accounts.filter((id) => id === input.platformid) : [input.platformid];
  if (accounts?.length === 0) return ok({ offers: [], total: 0 });

  const of = accounts;
  const base = () => {
    const query = ctx.db.selectFrom("sandbox_trade_offers");
    return of
      ? query.where((eb) =>
          eb.or([
            eb("sender", "in", of),
            eb.and([eb("receiver", "in", of), eb("confirmation_nonce", "is", null)]),
          ]),
        )
      : query;
  };
  const [rows, counted] = await Promise.all([
    base()
      .selectAll()
      .orderBy("tradeofferid", "desc")
      .limit(input.pageSize)
      .offset((input.pageNum - 1) * input.pageSize)
      .execute(),
    base()
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  return ok({ offers: rows.map((row) => toPlatformOffer(row)), total: Number(counted.count) });
}
