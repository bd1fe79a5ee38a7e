import { Type } from "typebox";
import {
  AccessLevelName,
  BuyOrderStatusName,
  IdString,
  PageNum,
  PageSize,
  StrictObject,
  UnixSeconds,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { EventsPage, EventsQuery } from "./events.ts";
import { SandboxBalances } from "./sandbox.ts";

/** The sandbox's view of its users (docs/sandbox.md): who exists, and what each holds. */
const sandbox = { access: "sandbox_admin", envelope: "sandbox", tags: ["Sandbox"] } as const;

const SandboxUserSummary = Type.Object({
  user_id: IdString,
  nickname: Type.String(),
  access_level: AccessLevelName,
  created_at: UnixSeconds,
});

export const sandboxListUsers = defineOperation({
  ...sandbox,
  id: "sandboxListUsers",
  method: "GET",
  path: "/sandbox/users",
  summary: "The marketplace's users, oldest first, a page at a time",
  querystring: Type.Object({ page_num: PageNum, page_size: PageSize(500, 50) }),
  response: Type.Object({
    items: Type.Array(SandboxUserSummary),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  }),
});

export const sandboxGetUser = defineOperation({
  ...sandbox,
  id: "sandboxGetUser",
  method: "GET",
  path: "/sandbox/users/:user_id",
  summary: "A user with balances, API tokens (never their secrets) and bound platform accounts",
  params: StrictObject({ user_id: IdString }),
  response: Type.Object({
    ...SandboxUserSummary.properties,
    buy_order_status: BuyOrderStatusName,
    buy_order_auto_offline: Type.Boolean(),
    balances: SandboxBalances,
    tokens: Type.Array(
      Type.Object({
        token_id: IdString,
        prefix: Type.String({ description: "the token's first characters, to recognise it" }),
        created_at: UnixSeconds,
        last_used_at: Type.Union([UnixSeconds, Type.Null()]),
        revoked_at: Type.Union([UnixSeconds, Type.Null()]),
      }),
    ),
    platform_accounts: Type.Array(
      Type.Object({
        platformid: Type.String(),
        trade_url: Type.Union([Type.String(), Type.Null()]),
        bound_at: UnixSeconds,
        cookie_state: Type.Union([Type.Enum(["valid", "invalid", "expired"]), Type.Null()]),
      }),
    ),
  }),
});

/**
 * A user's account events read by the sandbox admin (the console's event log): the same records and
 * paging as `listEvents` answers the user, without an API token of theirs.
 */
export const sandboxListUserEvents = defineOperation({
  ...sandbox,
  id: "sandboxListUserEvents",
  method: "GET",
  path: "/sandbox/users/:user_id/events",
  summary: "A user's account events after a given id, oldest first, as listEvents answers the user",
  params: StrictObject({ user_id: IdString }),
  querystring: EventsQuery,
  response: EventsPage,
});
