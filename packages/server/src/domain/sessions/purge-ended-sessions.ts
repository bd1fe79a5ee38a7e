import type { DomainContext } from "../context.ts";

/** Sessions are kept a day past their end (for support questions), then deleted. */
const KEEP_ENDED_SESSIONS_MS = 24 * 3600 * 1000;

export async function purgeEndedSessions(ctx: DomainContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - KEEP_ENDED_SESSIONS_MS);
  const deleted = await ctx.db
    .deleteFrom("web_sessions")
    .where((eb) => eb.or([eb("expires_at", "<", cutoff), eb("revoked_at", "<", cutoff)]))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
