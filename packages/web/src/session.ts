import { ApiError, web } from "./api.ts";
import { Store } from "./store.ts";

export interface User {
  user_id: string;
  nickname: string;
  steamid: string;
  trade_url: string;
}

/** The signed-in user, `null` for a visitor, `undefined` until the first answer. */
export const currentUser = new Store<User | null | undefined>(undefined);

export async function loadUser(): Promise<void> {
  try {
    currentUser.set(await web<User>("GET", "/account/api/user/info"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) currentUser.set(null);
    else currentUser.set(null);
  }
}

export async function signIn(nickname: string, password: string): Promise<void> {
  await web("POST", "/account/api/login", { body: { nickname, password } });
  await loadUser();
}

export async function signOut(): Promise<void> {
  try {
    await web("POST", "/account/api/logout");
  } finally {
    currentUser.set(null);
  }
}

/** The API token the official operations need (buy orders), pasted once per browser tab. */
export const apiToken = new Store<string>(sessionStorage.getItem("skinmarket.apiToken") ?? "");
export function setApiToken(token: string): void {
  if (token) sessionStorage.setItem("skinmarket.apiToken", token);
  else sessionStorage.removeItem("skinmarket.apiToken");
  apiToken.set(token);
}

/** The sandbox admin token the developer console needs, pasted once per browser tab. */
export const adminToken = new Store<string>(sessionStorage.getItem("skinmarket.adminToken") ?? "");
export function setAdminToken(token: string): void {
  if (token) sessionStorage.setItem("skinmarket.adminToken", token);
  else sessionStorage.removeItem("skinmarket.adminToken");
  adminToken.set(token);
}
