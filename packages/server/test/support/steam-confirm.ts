import type SteamCommunity from "steamcommunity";
import SteamTotp from "steam-totp";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";

/** A key as the authenticator makes it, for the sandbox clock's current second (the test clock's offset is 0). */
export function confirmationKey(account: SteamCredentials, tag: string, time = SteamTotp.time(0)) {
  return { time, key: { tag, key: SteamTotp.getConfirmationKey(account.identitySecret, time, tag) } };
}

export function listConfirmations(
  community: SteamCommunity,
  account: SteamCredentials,
): Promise<SteamCommunity.Confirmation[]> {
  const { time, key } = confirmationKey(account, "list");
  return new Promise((resolve, reject) =>
    community.getConfirmations(time, key, (error, list) => (error ? reject(error) : resolve(list))),
  );
}

/** Confirms (or cancels) the confirmation of one offer, as acceptConfirmationForObject does: list, then ajaxop. */
export async function confirmOffer(
  community: SteamCommunity,
  account: SteamCredentials,
  offerId: string,
  accept = true,
): Promise<void> {
  const found = (await listConfirmations(community, account)).find((each) => each.creator === offerId);
  if (!found) throw new Error(`no confirmation for offer ${offerId}`);
  const { time, key } = confirmationKey(account, accept ? "accept" : "reject");
  await new Promise<void>((resolve, reject) =>
    community.respondToConfirmation(found.id, found.key, time, key, accept, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}
