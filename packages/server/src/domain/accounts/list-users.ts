import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";

/** Every user, oldest first, a page at a time: the sandbox admin's roll of who exists. */
export async function listUsers(ctx: DomainContext, query: { pageNum: number; pageSize: number }) {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin lists users");
  const { total } = await ctx.db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string>().as("total"))
    .executeTakeFirstOrThrow();
  const rows = await ctx.db
    .selectFrom("users")
    .select(["user_id", "nickname", "access_level", "created_at"])
    .orderBy("user_id", "asc")
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const totalCount = Number(total);
  return ok({
    items: rows.map((row) => ({
      user_id: String(row.user_id),
      nickname: row.nickname,
      access_level: row.access_level,
      created_at: toUnixSeconds(row.created_at),
    })),
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}
