import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createUser } from "../../src/domain/accounts/create-user.ts";
import { sandboxHands } from "../../src/platform/sandbox/simulation-hands.ts";
import { countActions, eventTypes, openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `cookie-storm`: every bound account's cookies expire, the marketplace's check marks
 * them and tells the owners (`platform.cookie_expired`); two hours later the simulated traders
 * sign in again, a user's own account stays expired until they upload fresh cookies.
 */
describe("scenario cookie-storm", () => {
  let world: World;
  let userPlatformid = "";
  const cookieState = async (platformid: string) =>
    (
      await world.database.db
        .selectFrom("bound_platform_accounts")
        .select("cookie_state")
        .where("platformid", "=", platformid)
        .executeTakeFirstOrThrow()
    ).cookie_state;
  let stateAfterStorm: Array<string | null> = [];

  before(async () => {
    world = await openWorld({
      seed: 5,
      goods: 2,
      makers: 1,
      noise: 2,
      snipers: 1,
      clock_speed: 121,
      rate: 1,
    });
    const user = await createUser(world.env.ctx, { nickname: "bot-owner" });
    assert.ok(user.ok);
    const account = await sandboxHands.createReadyAccount(
      world.env.ctx,
      { ...world.env.ctx, actor: { kind: "user", userId: user.value.userId } },
      user.value.userId,
    );
    assert.ok(account.ok);
    userPlatformid = account.value.platformid;
    await step(world, 10);
    await startBuiltin(world, "cookie-storm");
    await step(world, 1);
    stateAfterStorm = [
      await cookieState(userPlatformid),
      ...(await Promise.all(world.state.agents.map((agent) => cookieState(agent.platformid)))),
    ];
    // Two minutes a step: the storm's two hours end at the 61st step.
    await step(world, 65);
  });
  after(() => world?.database.close());

  test("every bound account's cookies expired at once and were marked so", () => {
    assert.deepEqual(
      stateAfterStorm,
      stateAfterStorm.map(() => "expired"),
    );
  });

  test("the owners heard of it: platform.cookie_expired events", async () => {
    const types = await eventTypes(world);
    assert.ok(
      (types.get("platform.cookie_expired") ?? 0) >= world.state.agents.length + 1,
      JSON.stringify([...types]),
    );
  });

  test("the simulated traders signed in again at the end; the user's account stays expired", async () => {
    assert.equal(countActions(world, "sign_in", "OK"), world.state.agents.length);
    for (const agent of world.state.agents) assert.equal(await cookieState(agent.platformid), "valid");
    assert.equal(await cookieState(userPlatformid), "expired");
    assert.ok(countActions(world, "deliver", "OK") > 0, "deliveries resumed after the sign-in");
  });
});
