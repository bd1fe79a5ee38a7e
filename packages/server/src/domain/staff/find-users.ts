import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";
import { requireStaff } from "./staff-roles.ts";

export interface FoundUser {
  userId: number;
  nickname: string;
  createdAt: Date;
  closedAt: Date | null;
  platformIds: string[];
}

/**
 * Finds users for staff (every role, docs/design/back-office-money.md#finding-a-user): by id or
 * bound platform id when the query is all digits, and by nickname, case-insensitively from its
 * start, always. At most 20, by id.
 */
export async function findUsers(ctx: DomainContext, input: { query: string }): Promise<Result<FoundUser[]>> {
  const caller = requireStaff(ctx, "user.read");
  if (!caller.ok) return caller;
  const query = input.query.trim();
  if (query.length === 0) return invalidArgument("q", "a nickname, user id or platform id");
  const digits = /^\d{1,19}$/.test(query);
  const prefix = `${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await ctx.db
    .selectFrom("users")
    .select(["users.user_id", "users.nickname", "users.created_at", "users.closed_at"])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(users.nickname)`, "like", prefix),
        ...(digits
          ? [
              ...(Number.isSafeInteger(Number(query)) ? [eb("users.user_id", "=", Number(query))] : []),
              eb(
                "users.user_id",
                "in",
                eb.selectFrom("bound_platform_accounts").select("user_id").where("platformid", "=", query),
              ),
            ]
          : []),
      ]),
    )
    .orderBy("users.user_id")
    .limit(20)
    .execute();
  const ids = rows.map((row) => row.user_id);
  const bound =
    ids.length === 0
      ? []
      : await ctx.db
          .selectFrom("bound_platform_accounts")
          .select(["user_id", "platformid"])
          .where("user_id", "in", ids)
          .orderBy("platformid")
          .execute();
  return ok(
    rows.map((row) => ({
      userId: row.user_id,
      nickname: row.nickname,
      createdAt: row.created_at,
      closedAt: row.closed_at,
      platformIds: bound.filter((b) => b.user_id === row.user_id).map((b) => b.platformid),
    })),
  );
}
