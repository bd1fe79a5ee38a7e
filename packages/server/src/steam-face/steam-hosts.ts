/**
 * The names Steam's libraries call, hard-coded as `https://` URLs in each of them (none has a
 * base-URL option), so the face answers under these names and no others.
 */
export const STEAM_HOSTS = [
  "api.steampowered.com",
  "steamcommunity.com",
  "login.steampowered.com",
  "store.steampowered.com",
] as const;

export type SteamHost = (typeof STEAM_HOSTS)[number];

export function isSteamHost(name: string): name is SteamHost {
  return (STEAM_HOSTS as readonly string[]).includes(name);
}

/** The host a request names, lower-cased and without a port (`Host: steamcommunity.com:8443`). */
export function hostOf(header: string | undefined): string {
  return (header ?? "").replace(/:\d+$/, "").toLowerCase();
}
