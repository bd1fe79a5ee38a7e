import type { DomainContext } from "../../domain/context.ts";

export type SteamFaceKeyName = "password_rsa" | "openid_hmac";

/**
 * One of the Steam face's keys, the same on every instance sharing the database
 * (docs/design/steam-face.md#keys-shared-by-every-instance): read when it is there, otherwise made
 * with `make` and inserted with `ON CONFLICT DO NOTHING`, then read again, so that two instances
 * making it at once both keep the one that was inserted first. Kept sealed with the secret box;
 * a key sealed under another `SECRET_KEY` is replaced by a conditional update on the value read,
 * which again only one instance wins.
 */
export async function sharedSteamFaceKey(
  ctx: DomainContext,
  name: SteamFaceKeyName,
  make: () => Promise<string>,
): Promise<string> {
  const sealedFor = `steam-face:${name}`;
  const read = () =>
    ctx.db.selectFrom("sandbox_steam_face_keys").select("sealed").where("name", "=", name).executeTakeFirst();
  let row = await read();
  if (!row) {
    await ctx.db
      .insertInto("sandbox_steam_face_keys")
      .values({ name, sealed: ctx.secretBox.seal(await make(), sealedFor) })
      .onConflict((conflict) => conflict.column("name").doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error(`the Steam face's ${name} key was inserted but cannot be read`);
  const opened = ctx.secretBox.open(row.sealed, sealedFor);
  if (opened !== undefined) return opened;
  await ctx.db
    .updateTable("sandbox_steam_face_keys")
    .set({ sealed: ctx.secretBox.seal(await make(), sealedFor), created_at: new Date() })
    .where("name", "=", name)
    .where("sealed", "=", row.sealed)
    .execute();
  const replaced = await read();
  const reopened = replaced && ctx.secretBox.open(replaced.sealed, sealedFor);
  if (reopened === undefined)
    throw new Error(`the Steam face's ${name} key does not open with this SECRET_KEY`);
  return reopened;
}
