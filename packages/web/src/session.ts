import type { completeSteamSignIn, getUserInfo, login, logout, startSteamSignIn } from "@skinmarket/contract";
import { ApiError, web, type WebData } from "./api.ts";
import { Store } from "./store.ts";

export type User = WebData<typeof getUserInfo>;

/** The signed-in user, `null` for a visitor, `undefined` until the first answer. */
export const currentUser = new Store<User | null | undefined>(undefined);

/** Tries after a failure that is not an answer of "signed out" (the server busy or restarting). */
const USER_RETRIES_MS = [250, 500, 1000, 2000];

/**
 * Reads the signed-in user. Only a 401 means a visitor; any other failure is tried again a few
 * times before the page shows the visitor's view, so a slow answer does not sign a person out.
 */
export async function loadUser(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      currentUser.set(await web<typeof getUserInfo>("GET", "/account/api/user/info"));
      return;
    } catch (error) {
      const delay = USER_RETRIES_MS[attempt];
      if ((error instanceof ApiError && error.status === 401) || delay === undefined) {
        currentUser.set(null);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Whether the page's own HTML says a session is signed in: the server writes
 * `window.__SKINMARKET__` into every page it serves and, for a live session, the `signed-in-user`
 * block (`http/plugins/signed-in-user-script.ts` in the server package), so a page it served
 * without the block is a visitor's. `undefined` when the page was not served that way.
 */
export function signedInByPage(): boolean | undefined {
  if (!window.__SKINMARKET__) return undefined;
  return document.getElementById("signed-in-user") !== null;
}

/**
 * The first look at who is there: a visitor is known from the page itself, with no request (a
 * `user/info` asked for a visitor answers 401, which the browser logs as an error on every
 * visitor page); a signed-in session reads its user's record.
 */
export async function startSession(): Promise<void> {
  if (signedInByPage() === false) currentUser.set(null);
  else await loadUser();
}

export async function signIn(nickname: string, password: string): Promise<void> {
  await web<typeof login>("POST", "/account/api/login", { body: { nickname, password } });
  await loadUser();
}

/** Where "Sign in through Steam" sends the browser: Steam's page, which returns it to `/signin`. */
export async function steamSignInUrl(): Promise<string> {
  return (await web<typeof startSteamSignIn>("GET", "/account/api/steam/login")).redirect_url;
}

/** Signs in with the `openid.*` parameters Steam returned to the sign-in page. */
export async function completeSignInThroughSteam(assertion: Record<string, string>): Promise<void> {
  await web<typeof completeSteamSignIn>("POST", "/account/api/steam/login", { body: assertion });
  await loadUser();
}

export async function signOut(): Promise<void> {
  try {
    await web<typeof logout>("POST", "/account/api/logout");
  } finally {
    currentUser.set(null);
  }
}

/** The sandbox admin token the developer console needs, pasted once per browser tab. */
export const adminToken = new Store<string>(sessionStorage.getItem("skinmarket.adminToken") ?? "");
export function setAdminToken(token: string): void {
  if (token) sessionStorage.setItem("skinmarket.adminToken", token);
  else sessionStorage.removeItem("skinmarket.adminToken");
  adminToken.set(token);
}
