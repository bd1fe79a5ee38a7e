import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Mail, MailSender } from "../../src/domain/mail-sender.ts";
import { createTestApp, setCookieValue, type TestApp, type WebSession } from "../support/test-app.ts";

/** The code a confirmation mail's link carries. */
function codeOf(text: string): string {
  const code = /[?&]code=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  assert.ok(code, `no confirmation link in: ${text}`);
  return code;
}

/** A mail server stand-in with the sandbox off: the mails a real SMTP server would have taken. */
class CapturedMail implements MailSender {
  readonly kind = "smtp";
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
}

let counter = 0;
function person() {
  counter += 1;
  return {
    nickname: `person-${counter}-${process.pid}`,
    email: `Person${counter}.${process.pid}@Example.com`,
    password: "correct horse battery",
  };
}

async function mailsTo(
  t: TestApp,
  to: string,
): Promise<Array<{ subject: string; text: string; to: string }>> {
  const answer = await t.admin("GET", `/sandbox/mails?to=${encodeURIComponent(to)}`);
  assert.equal(answer.statusCode, 200, answer.body);
  return answer.json<{ items: Array<{ subject: string; text: string; to: string }> }>().items;
}

async function login(t: TestApp, nickname: string, password: string, userAgent = "test-browser/1.0") {
  return t.app.inject({
    method: "POST",
    url: "/account/api/login",
    headers: { "user-agent": userAgent },
    payload: { nickname, password },
  });
}

function sessionOf(answer: { headers: Record<string, unknown> }): WebSession {
  const setCookie = answer.headers["set-cookie"] as string[] | string | undefined;
  const session = setCookieValue(setCookie, "session")!;
  const csrfToken = setCookieValue(setCookie, "csrf_token") ?? "";
  return { cookie: `session=${session}; csrf_token=${csrfToken}`, csrfToken };
}

describe("accounts for people, sandbox on", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  test("happy: sign up, confirm the mailed link, sign in, read the sign-in history", async () => {
    const who = person();
    const signedUp = await t.app.inject({ method: "POST", url: "/account/api/signup", payload: who });
    assert.equal(signedUp.statusCode, 200, signedUp.body);
    assert.deepEqual(signedUp.json().data, {
      nickname: who.nickname,
      email: who.email,
      confirmation_sent: true,
    });

    const refused = await login(t, who.nickname, who.password);
    assert.equal(refused.statusCode, 403, "no sign-in before the address is confirmed");
    assert.match(refused.json().error, /^email: confirm your address/);
    const mails = await mailsTo(t, who.email.toLowerCase());
    assert.equal(mails.length, 2, "the sign-up's mail, and a fresh one for the refused sign-in");
    assert.match(mails[0]!.text, /^Hello person-/);
    assert.match(mails[0]!.text, /http:\/\/localhost(:\d+)?\/confirm-email\?code=/);

    const confirmed = await t.app.inject({
      method: "POST",
      url: "/account/api/email/confirm",
      payload: { code: codeOf(mails[1]!.text) },
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(confirmed.json().data.nickname, who.nickname);

    const signedIn = await login(t, who.nickname, who.password, "Mozilla/5.0 (test)");
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    const history = await t.web(sessionOf(signedIn), "GET", "/account/api/sign_ins");
    assert.equal(history.statusCode, 200, history.body);
    const items = history.json().data.items;
    assert.equal(items.length, 1);
    assert.equal(items[0].method, "password");
    assert.equal(items[0].ip, "127.0.0.1");
    assert.equal(items[0].user_agent, "Mozilla/5.0 (test)");
    assert.ok(Math.abs(items[0].signed_in_at - t.clock.now().getTime() / 1000) < 60);
  });

  test("error: a confirmation link works once; an unknown one is refused naming the code", async () => {
    const who = person();
    await t.app.inject({ method: "POST", url: "/account/api/signup", payload: who });
    const code = codeOf((await mailsTo(t, who.email))[0]!.text);
    const first = await t.app.inject({
      method: "POST",
      url: "/account/api/email/confirm",
      payload: { code },
    });
    assert.equal(first.statusCode, 200);
    const again = await t.app.inject({
      method: "POST",
      url: "/account/api/email/confirm",
      payload: { code },
    });
    assert.equal(again.statusCode, 400);
    assert.match(again.json().error, /^code: /);
    const malformed = await t.app.inject({
      method: "POST",
      url: "/account/api/email/confirm",
      payload: { code: "x" },
    });
    assert.equal(malformed.statusCode, 400);
  });

  test("error: a link past its day is refused", async () => {
    const who = person();
    await t.app.inject({ method: "POST", url: "/account/api/signup", payload: who });
    const code = codeOf((await mailsTo(t, who.email))[0]!.text);
    const moved = await t.admin("POST", "/sandbox/clock/advance", { seconds: 25 * 3600 });
    assert.equal(moved.statusCode, 200, moved.body);
    const late = await t.app.inject({ method: "POST", url: "/account/api/email/confirm", payload: { code } });
    assert.equal(late.statusCode, 400);
  });

  test("error: bad fields are named; a nickname in use is refused", async () => {
    const who = person();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...who, email: "not-an-address" }, /email/],
      [{ ...who, password: "short" }, /password/],
      [{ ...who, nickname: " padded " }, /nickname/],
      [{ ...who, extra: 1 }, /extra/],
    ];
    for (const [payload, field] of cases) {
      const answer = await t.app.inject({ method: "POST", url: "/account/api/signup", payload });
      assert.equal(answer.statusCode, 400, answer.body);
      assert.match(answer.body, field);
    }
    const existing = await t.createUser();
    const taken = await t.app.inject({
      method: "POST",
      url: "/account/api/signup",
      payload: { ...who, nickname: existing.nickname.toUpperCase() },
    });
    assert.equal(taken.statusCode, 400);
    assert.match(taken.json().error, /^nickname: .* is already taken/);
  });

  test("security: an address in use answers as a new one, makes no account and mails its owner", async () => {
    const who = person();
    await t.app.inject({ method: "POST", url: "/account/api/signup", payload: who });
    const other = { ...person(), email: who.email.toUpperCase() };
    const again = await t.app.inject({ method: "POST", url: "/account/api/signup", payload: other });
    assert.equal(again.statusCode, 200, again.body);
    const subjects = (await mailsTo(t, who.email)).map((mail) => mail.subject);
    assert.deepEqual(subjects, [
      "Someone tried to sign up with your address",
      "Confirm your skinmarket address",
    ]);
    const users = await t.ctx.db
      .selectFrom("users")
      .select("user_id")
      .where("nickname", "=", other.nickname)
      .execute();
    assert.equal(users.length, 0);
  });

  test("security: the history needs a session and shows only the caller's own sign-ins; the mailbox needs the admin token", async () => {
    const noSession = await t.app.inject({ method: "GET", url: "/account/api/sign_ins" });
    assert.equal(noSession.statusCode, 401);
    const a = await t.createUser();
    const b = await t.createUser();
    await t.signIn(a.nickname, a.password);
    const session = await t.signIn(b.nickname, b.password);
    const items = (await t.web(session, "GET", "/account/api/sign_ins")).json().data.items;
    assert.equal(items.length, 1);
    const mailbox = await t.app.inject({ method: "GET", url: "/sandbox/mails" });
    assert.equal(mailbox.statusCode, 401);
    const asUser = await t.as(a.token, "GET", "/sandbox/mails");
    assert.equal(asUser.statusCode, 401);
  });

  test("closing: refused with money held or a wrong nickname; then sessions, tokens and sign-in end", async () => {
    const user = await t.createUser();
    const session = await t.signIn(user.nickname, user.password);
    await t.fund(user.userId, "balance", "5.00");
    const withMoney = await t.web(session, "POST", "/account/api/close", { nickname: user.nickname });
    assert.equal(withMoney.statusCode, 409, withMoney.body);
    assert.match(withMoney.json().error, /money \(balance\); withdraw it first/);
    const withdrawn = await t.admin("POST", `/sandbox/users/${user.userId}/withdrawals`, {
      account: "balance",
      amount: "5.00",
    });
    assert.equal(withdrawn.statusCode, 200, withdrawn.body);
    const wrongName = await t.web(session, "POST", "/account/api/close", { nickname: "someone-else" });
    assert.equal(wrongName.statusCode, 400);
    assert.match(wrongName.json().error, /^nickname: /);

    const closed = await t.web(session, "POST", "/account/api/close", { nickname: user.nickname });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal((await t.web(session, "GET", "/account/api/user/info")).statusCode, 401);
    assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 401);
    const again = await login(t, user.nickname, user.password);
    assert.equal(again.statusCode, 403);
    assert.match(again.json().error, /closed/);
    await t.assertLedger();
  });

  test("security: closing needs the session and its CSRF token", async () => {
    const user = await t.createUser();
    const session = await t.signIn(user.nickname, user.password);
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/account/api/close",
      payload: { nickname: user.nickname },
    });
    assert.equal(anonymous.statusCode, 401);
    const forged = await t.app.inject({
      method: "POST",
      url: "/account/api/close",
      headers: { cookie: session.cookie },
      payload: { nickname: user.nickname },
    });
    assert.equal(forged.statusCode, 403);
    assert.equal((await t.web(session, "GET", "/account/api/user/info")).statusCode, 200);
  });
});

describe("accounts for people, sandbox off", () => {
  test("with a mail server: sign up, confirm, sign in; no sandbox mailbox", async () => {
    const mail = new CapturedMail();
    const t = await createTestApp({ sandbox: false, mail });
    try {
      const who = person();
      const signedUp = await t.app.inject({ method: "POST", url: "/account/api/signup", payload: who });
      assert.equal(signedUp.statusCode, 200, signedUp.body);
      assert.equal(mail.sent.length, 1);
      assert.equal(mail.sent[0]!.to, who.email);
      const confirmed = await t.app.inject({
        method: "POST",
        url: "/account/api/email/confirm",
        payload: { code: codeOf(mail.sent[0]!.text) },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal((await login(t, who.nickname, who.password)).statusCode, 200);
      assert.equal((await t.app.inject({ method: "GET", url: "/sandbox/mails" })).statusCode, 404);
    } finally {
      await t.close();
    }
  });

  test("without a mail server, sign-up is refused with what the operator must set", async () => {
    const t = await createTestApp({ sandbox: false });
    try {
      const answer = await t.app.inject({ method: "POST", url: "/account/api/signup", payload: person() });
      assert.equal(answer.statusCode, 409, answer.body);
      assert.match(answer.json().error, /SMTP_URL/);
    } finally {
      await t.close();
    }
  });
});

describe("accounts for people: sign-ups are held back", () => {
  test("security: one address signed up again and again is held back after 5, answered 429 with Retry-After", async () => {
    const t = await createTestApp({ stoppedClock: true });
    try {
      const who = person();
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 7; attempt++) {
        last = await t.app.inject({
          method: "POST",
          url: "/account/api/signup",
          payload: { ...who, nickname: `${who.nickname}-${attempt}` },
        });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      assert.ok(Number(last!.headers["retry-after"]) >= 1);
      // The address's owner got one confirmation and four notices, no more.
      assert.equal((await mailsTo(t, who.email)).length, 5);
    } finally {
      await t.close();
    }
  });
});
