import { Type } from "typebox";
import { IdString, InternalOk, Nickname, StrictObject, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";

const SignedInUser = {
  user_id: IdString,
  nickname: Type.String(),
};

/** POST /account/api/login: web sign-in; answers a `session` cookie (docs/design.md section 8). */
export const login = defineOperation({
  id: "login",
  method: "POST",
  path: "/account/api/login",
  access: "public",
  envelope: "internal",
  summary: "Signs in with nickname and password and sets the `session` cookie",
  tags: ["Web account"],
  body: StrictObject({
    nickname: Nickname,
    password: Text({ minLength: 1, maxLength: 256 }),
  }),
  response: InternalOk(SignedInUser),
});

/** POST /account/api/logout: ends the current session, if any, and clears the cookie. */
export const logout = defineOperation({
  id: "logout",
  method: "POST",
  path: "/account/api/logout",
  access: "public",
  envelope: "internal",
  summary: "Signs out: ends the session behind the `session` cookie",
  tags: ["Web account"],
  response: InternalOk({}),
});

/** GET /account/api/user/info: the signed-in user, or the `Login Required` form. */
export const getUserInfo = defineOperation({
  id: "getUserInfo",
  method: "GET",
  path: "/account/api/user/info",
  access: "session",
  envelope: "internal",
  summary: "The signed-in user",
  tags: ["Web account"],
  response: InternalOk({
    ...SignedInUser,
    access_level: Type.String(),
    buy_order_status: Type.String(),
    created_at: Type.Integer(),
  }),
});
