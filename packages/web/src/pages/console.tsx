import { useEffect, useState } from "preact/hooks";
import { sandbox } from "../api.ts";
import { settings } from "../config.ts";
import { dateTime, money } from "../format.ts";
import { language, t } from "../i18n.ts";
import { adminToken, setAdminToken } from "../session.ts";
import { useStore } from "../store.ts";
import { EventsAndWebhooks } from "./console-events-webhooks.tsx";
import { SimulationPanel } from "./console-simulation.tsx";

interface UserSummary {
  user_id: string;
  nickname: string;
  access_level: string;
  created_at: number;
}
interface Balances {
  balance: string;
  margin: string;
  wallet: string;
  escrow: string;
}
interface UserDetail extends UserSummary {
  balances: Balances;
  tokens: Array<{
    token_id: string;
    prefix: string;
    created_at: number;
    last_used_at: number | null;
    revoked_at: number | null;
  }>;
  platform_accounts: Array<{
    platformid: string;
    trade_url: string | null;
    bound_at: number;
    cookie_state: string | null;
  }>;
}
interface Offer {
  tradeofferid: string;
  sender: string;
  receiver: string;
  assetids: string[];
  state: string;
  message: string;
  created_at: number;
}

/**
 * The developer console over the sandbox API (sandbox on). It needs the sandbox admin token, which
 * the person pastes once; it is kept in this tab's sessionStorage only and sent as a bearer token.
 */
export function ConsolePage() {
  const token = useStore(adminToken);
  useStore(language);
  if (!settings.sandbox)
    return <p class="notice">{t("The sandbox is off on this server: the console needs it.")}</p>;
  if (!token) return <AdminTokenForm />;
  return (
    <div class="console">
      <div class="row">
        <h1>{t("Developer console")}</h1>
        <button type="button" onClick={() => setAdminToken("")}>
          {t("Forget the admin token")}
        </button>
      </div>
      <Users token={token} />
      <Clock token={token} />
      <Offers token={token} />
      <SimulationPanel token={token} />
      <EventsAndWebhooks adminToken={token} />
      <Reset token={token} />
    </div>
  );
}

function AdminTokenForm() {
  const [value, setValue] = useState("");
  const [error, setError] = useState("");
  return (
    <form
      class="panel narrow"
      aria-labelledby="admin-title"
      onSubmit={async (event) => {
        event.preventDefault();
        try {
          await sandbox("GET", "/sandbox/clock", value.trim());
          setAdminToken(value.trim());
        } catch (failure) {
          setError((failure as Error).message);
        }
      }}
    >
      <h1 id="admin-title">{t("Developer console")}</h1>
      <p>
        {t(
          "Paste the sandbox admin token (printed at the first start, kept in data/sandbox-admin-token). It stays in this tab only.",
        )}
      </p>
      <label>
        {t("Sandbox admin token")}
        <input
          value={value}
          required
          autocomplete="off"
          onInput={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary">
        {t("Open the console")}
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </form>
  );
}

function useAction(): [string, string, (work: () => Promise<string>) => Promise<void>] {
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const run = async (work: () => Promise<string>) => {
    setMessage("");
    setError("");
    try {
      setMessage(await work());
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return [message, error, run];
}

function Feedback(props: { message: string; error: string }) {
  return (
    <>
      {props.message ? <p role="status">{props.message}</p> : null}
      {props.error ? <p role="alert">{props.error}</p> : null}
    </>
  );
}

function Users(props: { token: string }) {
  const [users, setUsers] = useState<UserSummary[]>([]);
  const [selected, setSelected] = useState<string>("");
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const [secret, setSecret] = useState("");

  useEffect(() => {
    sandbox<{ items: UserSummary[]; total_page: number }>("GET", "/sandbox/users", props.token, {
      query: { page_size: 500 },
    })
      .then((answer) => setUsers(answer.items))
      .catch(() => setUsers([]));
  }, [version]);

  return (
    <section aria-labelledby="users-title" class="panel">
      <h2 id="users-title">{t("Users")}</h2>
      <form
        class="row"
        aria-label={t("Create a user")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          void run(async () => {
            const created = await sandbox<{ user_id: string; nickname: string; token: string }>(
              "POST",
              "/sandbox/users",
              props.token,
              {
                body: {
                  nickname: String(form.get("nickname")),
                  password: String(form.get("password")),
                  access_level: String(form.get("access_level")),
                },
              },
            );
            setSecret(created.token);
            setSelected(created.user_id);
            setVersion((value) => value + 1);
            return t("User {n} created.", { n: `${created.nickname} (${created.user_id})` });
          });
        }}
      >
        <label>
          {t("Nickname")}
          <input name="nickname" required />
        </label>
        <label>
          {t("Password")}
          <input name="password" type="password" required minLength={8} autocomplete="new-password" />
        </label>
        <label>
          {t("Access level")}
          <select name="access_level">
            <option value="developer">developer</option>
            <option value="enterprise">enterprise</option>
          </select>
        </label>
        <button type="submit">{t("Create user")}</button>
      </form>
      <OnceSecret secret={secret} onDone={() => setSecret("")} />
      <Feedback message={message} error={error} />
      <label>
        {t("User")}
        <select value={selected} onChange={(event) => setSelected(event.currentTarget.value)}>
          <option value="">{t("Choose a user")}</option>
          {users.map((user) => (
            <option key={user.user_id} value={user.user_id}>
              {user.nickname} ({user.user_id}, {user.access_level})
            </option>
          ))}
        </select>
      </label>
      {selected ? <UserPanel token={props.token} userId={selected} /> : null}
    </section>
  );
}

/** A new API token, shown only now, with a copy button. */
function OnceSecret(props: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  if (!props.secret) return null;
  return (
    <div class="secret" role="group" aria-label={t("New API token")}>
      <p>{t("The new API token, shown only now:")}</p>
      <code>{props.secret}</code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(props.secret).then(() => setCopied(true));
        }}
      >
        {copied ? t("Copied") : t("Copy")}
      </button>
      <button type="button" onClick={props.onDone}>
        {t("Done")}
      </button>
    </div>
  );
}

function UserPanel(props: { token: string; userId: string }) {
  const [user, setUser] = useState<UserDetail | null>(null);
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const [secret, setSecret] = useState("");
  const refresh = () => setVersion((value) => value + 1);
  const path = `/sandbox/users/${props.userId}`;

  useEffect(() => {
    sandbox<UserDetail>("GET", path, props.token)
      .then(setUser)
      .catch(() => setUser(null));
  }, [props.userId, version]);

  if (!user) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <div class="user-panel">
      <h3>{t("Balances")}</h3>
      <p>
        {t("Balance")} {money(user.balances.balance)} · {t("Buy-order funds")} {money(user.balances.margin)} ·{" "}
        {t("Wallet")} {money(user.balances.wallet)} · {t("In trades (escrow)")} {money(user.balances.escrow)}
      </p>
      <form
        class="row"
        aria-label={t("Fund the account")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          void run(async () => {
            await sandbox("POST", `${path}/funds`, props.token, {
              body: { account: String(form.get("account")), amount: String(form.get("amount")) },
            });
            refresh();
            return t("Funds moved.");
          });
        }}
      >
        <label>
          {t("Account")}
          <select name="account">
            <option value="balance">{t("Balance")}</option>
            <option value="margin">{t("Buy-order funds")}</option>
            <option value="wallet">{t("Wallet")}</option>
          </select>
        </label>
        <label>
          {t("Amount")}
          <input name="amount" required inputMode="decimal" size={8} placeholder="500" />
        </label>
        <button type="submit">{t("Deposit")}</button>
      </form>

      <h3>{t("API tokens")}</h3>
      <table aria-label={t("API tokens")}>
        <thead>
          <tr>
            <th scope="col">{t("Token")}</th>
            <th scope="col">{t("Created")}</th>
            <th scope="col">{t("Last used")}</th>
            <th scope="col">{t("State")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {user.tokens.map((token) => (
            <tr key={token.token_id}>
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>{dateTime(token.created_at)}</td>
              <td>{dateTime(token.last_used_at)}</td>
              <td>{token.revoked_at ? t("Revoked") : t("Active")}</td>
              <td>
                {token.revoked_at ? null : (
                  <button
                    type="button"
                    onClick={() =>
                      run(async () => {
                        await sandbox("DELETE", `/sandbox/tokens/${token.token_id}`, props.token);
                        refresh();
                        return t("Token revoked.");
                      })
                    }
                  >
                    {t("Revoke token {p}", { p: token.prefix })}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        onClick={() =>
          run(async () => {
            const issued = await sandbox<{ token: string }>("POST", `${path}/tokens`, props.token);
            setSecret(issued.token);
            refresh();
            return t("Token created.");
          })
        }
      >
        {t("Create API token")}
      </button>
      <OnceSecret secret={secret} onDone={() => setSecret("")} />

      <h3>{t("Platform accounts")}</h3>
      <ul>
        {user.platform_accounts.map((account) => (
          <li key={account.platformid}>
            <code>{account.platformid}</code> · {account.cookie_state ?? t("no cookies")}
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() =>
          run(async () => {
            const created = await sandbox<{ platformid: string }>(
              "POST",
              "/sandbox/platform/accounts",
              props.token,
              {
                body: { user_id: props.userId },
              },
            );
            refresh();
            return t("Platform account {p} created and bound.", { p: created.platformid });
          })
        }
      >
        {t("Create platform account")}
      </button>
      {user.platform_accounts.length > 0 ? (
        <form
          class="row"
          aria-label={t("Grant items")}
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            void run(async () => {
              const answer = await sandbox<{ assets: unknown[] }>(
                "POST",
                `/sandbox/platform/accounts/${String(form.get("platformid"))}/items`,
                props.token,
                {
                  body: { market_hash_name: String(form.get("name")), count: Number(form.get("count") || 1) },
                },
              );
              refresh();
              return t("{n} items granted.", { n: answer.assets.length });
            });
          }}
        >
          <label>
            {t("Platform account")}
            <select name="platformid">
              {user.platform_accounts.map((account) => (
                <option key={account.platformid} value={account.platformid}>
                  {account.platformid}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("Item name (English)")}
            <input name="name" required placeholder="AK-47 | Redline (Field-Tested)" size={32} />
          </label>
          <label>
            {t("Count")}
            <input name="count" type="number" min={1} max={1000} defaultValue="1" size={4} />
          </label>
          <button type="submit">{t("Grant items")}</button>
        </form>
      ) : null}
      <Feedback message={message} error={error} />
    </div>
  );
}

function Clock(props: { token: string }) {
  const [clock, setClock] = useState<{ now: number; offset_seconds: number } | null>(null);
  const [jobs, setJobs] = useState<Array<{ name: string; processed: number }>>([]);
  const [message, error, run] = useAction();
  const load = () =>
    sandbox<{ now: number; offset_seconds: number }>("GET", "/sandbox/clock", props.token)
      .then(setClock)
      .catch(() => setClock(null));
  useEffect(() => {
    void load();
  }, []);
  const advance = (seconds: number) =>
    run(async () => {
      setClock(await sandbox("POST", "/sandbox/clock/advance", props.token, { body: { seconds } }));
      return t("Clock moved forward.");
    });
  return (
    <section aria-labelledby="clock-title" class="panel">
      <h2 id="clock-title">{t("Clock and jobs")}</h2>
      {clock ? (
        <p>
          {t("Marketplace time: {d}", { d: dateTime(clock.now) })} ·{" "}
          {t("{n} seconds ahead", { n: clock.offset_seconds })}
        </p>
      ) : null}
      <div class="row">
        {(
          [
            [1800, "+30 minutes"],
            [3600 * 12, "+12 hours"],
            [86400, "+1 day"],
            [86400 * 7, "+7 days"],
          ] as const
        ).map(([seconds, label]) => (
          <button type="button" key={seconds} onClick={() => advance(seconds)}>
            {t(label)}
          </button>
        ))}
        <button
          type="button"
          onClick={() =>
            run(async () => {
              const answer = await sandbox<{ jobs: Array<{ name: string; processed: number }> }>(
                "POST",
                "/sandbox/jobs/run",
                props.token,
              );
              setJobs(answer.jobs);
              return t("Jobs run.");
            })
          }
        >
          {t("Run due jobs")}
        </button>
      </div>
      {jobs.length ? (
        <ul aria-label={t("Jobs run")}>
          {jobs.map((job) => (
            <li key={job.name}>
              {job.name}: {job.processed}
            </li>
          ))}
        </ul>
      ) : null}
      <Feedback message={message} error={error} />
    </section>
  );
}

function Offers(props: { token: string }) {
  const [offers, setOffers] = useState<Offer[]>([]);
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  useEffect(() => {
    sandbox<{ items: Offer[] }>("GET", "/sandbox/platform/offers", props.token)
      .then((answer) => setOffers(answer.items))
      .catch(() => setOffers([]));
  }, [version]);
  const answer = (offer: Offer, verb: "accept" | "decline") =>
    run(async () => {
      await sandbox("POST", `/sandbox/platform/offers/${offer.tradeofferid}/${verb}`, props.token);
      setVersion((value) => value + 1);
      return verb === "accept"
        ? t("Offer {o} accepted.", { o: offer.tradeofferid })
        : t("Offer {o} declined.", { o: offer.tradeofferid });
    });
  return (
    <section aria-labelledby="offers-title" class="panel">
      <div class="row">
        <h2 id="offers-title">{t("Trade offers")}</h2>
        <button type="button" onClick={() => setVersion((value) => value + 1)}>
          {t("Refresh")}
        </button>
      </div>
      <p class="muted small">{t("Answer an offer as its receiver would on the platform.")}</p>
      {offers.length === 0 ? <p class="muted">{t("No trade offers.")}</p> : null}
      <table aria-label={t("Trade offers")}>
        <thead>
          <tr>
            <th scope="col">{t("Offer")}</th>
            <th scope="col">{t("From → to")}</th>
            <th scope="col">{t("Message")}</th>
            <th scope="col">{t("State")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {offers.slice(0, 50).map((offer) => (
            <tr key={offer.tradeofferid}>
              <td>{offer.tradeofferid}</td>
              <td class="small">
                {offer.sender} → {offer.receiver}
              </td>
              <td>{offer.message}</td>
              <td>{offer.state}</td>
              <td>
                {offer.state === "active" ? (
                  <>
                    <button type="button" onClick={() => answer(offer, "accept")}>
                      {t("Accept offer {o}", { o: offer.tradeofferid })}
                    </button>
                    <button type="button" onClick={() => answer(offer, "decline")}>
                      {t("Decline offer {o}", { o: offer.tradeofferid })}
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Feedback message={message} error={error} />
    </section>
  );
}

function Reset(props: { token: string }) {
  const [message, error, run] = useAction();
  return (
    <section aria-labelledby="reset-title" class="panel danger">
      <h2 id="reset-title">{t("Reset the world")}</h2>
      <p>
        {t("Empties users, tokens, money, listings and trades (the catalog stays) and resets the clock.")}
      </p>
      <button
        type="button"
        onClick={() => {
          if (!window.confirm(t("Reset everything?"))) return;
          void run(async () => {
            await sandbox("POST", "/sandbox/reset", props.token);
            return t("The world was reset.");
          });
        }}
      >
        {t("Reset")}
      </button>
      <Feedback message={message} error={error} />
    </section>
  );
}
