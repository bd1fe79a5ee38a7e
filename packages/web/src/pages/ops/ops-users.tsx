import type {
  staffAdjustBalance,
  staffFindUsers,
  staffFreezeAccount,
  staffGetUser,
  staffRefundTrade,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { ops } from "../../api.ts";
import { ListTable } from "../../components/paged-list.tsx";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useLoad } from "../../use-data.tsx";
import { reasonOf, StaffActionForm } from "./staff-action-form.tsx";

/**
 * Finding a user and their page (docs/design/back-office-money.md#finding-a-user): every role
 * searches by nickname, user id or platform id and reads balances, trades, sign-ins and the staff
 * actions on the user; the forms of money by hand show only to the roles that may use them.
 */
export function UserSearch(props: { operations: readonly string[] }) {
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const found = useLoad(
    () =>
      query === ""
        ? Promise.resolve(null)
        : ops<typeof staffFindUsers>("GET", "/ops/api/users", { query: { q: query } }),
    [query],
  );
  return (
    <section aria-labelledby="find-user-title">
      <h2 id="find-user-title">{t("Find a user")}</h2>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setChosen(null);
          setQuery(String(form.get("q") ?? "").trim());
        }}
      >
        <label>
          {t("Nickname, user id or platform id")}
          <input name="q" required maxLength={64} />
        </label>
        <button type="submit">{t("Search")}</button>
      </form>
      {found.error ? <Feedback message="" error={found.error} /> : null}
      {found.value ? (
        found.value.items.length === 0 ? (
          <p class="muted">{t("No user matches.")}</p>
        ) : (
          <ListTable
            label={t("Users found")}
            headers={[t("User id"), t("Nickname"), t("Platform ids"), t("Actions")]}
          >
            {found.value.items.map((user) => (
              <tr key={user.user_id}>
                <td>{user.user_id}</td>
                <td>{user.nickname}</td>
                <td>{user.platform_ids.join(", ") || "—"}</td>
                <td>
                  <button type="button" onClick={() => setChosen(user.user_id)}>
                    {t("Open {nickname}", { nickname: user.nickname })}
                  </button>
                </td>
              </tr>
            ))}
          </ListTable>
        )
      ) : null}
      {chosen ? <UserPage userId={chosen} operations={props.operations} /> : null}
    </section>
  );
}

function UserPage(props: { userId: string; operations: readonly string[] }) {
  const [version, setVersion] = useState(0);
  const page = useLoad(
    () => ops<typeof staffGetUser>("GET", `/ops/api/users/${encodeURIComponent(props.userId)}`),
    [props.userId, version],
  );
  const changed = () => setVersion((value) => value + 1);
  if (page.error) return <Feedback message="" error={page.error} />;
  if (!page.value) return <p aria-busy="true">{t("Loading…")}</p>;
  const { user, balances, trades, sign_ins, staff_actions } = page.value;
  return (
    <article aria-labelledby="user-page-title">
      <h3 id="user-page-title">
        {t("User {nickname} ({id})", { nickname: user.nickname, id: user.user_id })}
      </h3>
      <p>
        {t("Balance {balance}, margin {margin}, wallet {wallet}, escrow {escrow}.", {
          balance: money(balances.balance),
          margin: money(balances.margin),
          wallet: money(balances.wallet),
          escrow: money(balances.escrow),
        })}
      </p>
      {props.operations.includes("money.adjust") ? (
        <AdjustForm userId={user.user_id} onDone={changed} />
      ) : null}
      {props.operations.includes("user.freeze") ? (
        <FreezeForm userId={user.user_id} onDone={changed} />
      ) : null}
      {props.operations.includes("trade.refund") ? <RefundForm onDone={changed} /> : null}
      <h4>{t("Recent trades")}</h4>
      {trades.length === 0 ? (
        <p class="muted">{t("No trade yet.")}</p>
      ) : (
        <ListTable
          label={t("Recent trades")}
          headers={[t("Trade"), t("Side"), t("Price"), t("State"), t("When")]}
        >
          {trades.map((trade) => (
            <tr key={trade.trade_id}>
              <td>{trade.trade_id}</td>
              <td>{trade.side === "buyer" ? t("bought") : t("sold")}</td>
              <td>{money(trade.price)}</td>
              <td>{trade.state}</td>
              <td>{dateTime(trade.created_at)}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <h4>{t("Recent sign-ins")}</h4>
      {sign_ins.length === 0 ? (
        <p class="muted">{t("No sign-in yet.")}</p>
      ) : (
        <ListTable label={t("Recent sign-ins")} headers={[t("When"), t("Address"), t("Method")]}>
          {sign_ins.map((row) => (
            <tr key={row.signed_in_at + row.ip}>
              <td>{dateTime(row.signed_in_at)}</td>
              <td>{row.ip}</td>
              <td>{row.method}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <h4>{t("Staff actions on this user")}</h4>
      {staff_actions.length === 0 ? (
        <p class="muted">{t("No staff action yet.")}</p>
      ) : (
        <ListTable
          label={t("Staff actions on this user")}
          headers={[t("When"), t("Who"), t("What"), t("Why")]}
        >
          {staff_actions.map((row) => (
            <tr key={row.action_id}>
              <td>{dateTime(row.acted_at)}</td>
              <td>{row.staff_email ?? t("command line")}</td>
              <td>{row.operation}</td>
              <td>{row.reason}</td>
            </tr>
          ))}
        </ListTable>
      )}
    </article>
  );
}

function AdjustForm(props: { userId: string; onDone: () => void }) {
  return (
    <StaffActionForm
      id="adjust"
      heading="h4"
      title={t("Adjust the balance by hand")}
      submit={t("Adjust")}
      act={async (form) => {
        const done = await ops<typeof staffAdjustBalance>(
          "POST",
          `/ops/api/users/${encodeURIComponent(props.userId)}/adjustments`,
          {
            body: {
              direction: form.get("direction") === "debit" ? "debit" : "credit",
              amount: String(form.get("amount") ?? ""),
              reason: reasonOf(form),
            },
          },
        );
        props.onDone();
        return t("Balance {before} → {after}.", {
          before: money(done.balance_before),
          after: money(done.balance_after),
        });
      }}
    >
      <label>
        {t("Direction")}
        <select name="direction">
          <option value="credit">{t("credit")}</option>
          <option value="debit">{t("debit")}</option>
        </select>
      </label>
      <label>
        {t("Amount (yuan)")}
        <input name="amount" required inputMode="decimal" pattern="[0-9]+([.][0-9]{1,2})?" />
      </label>
    </StaffActionForm>
  );
}

function FreezeForm(props: { userId: string; onDone: () => void }) {
  return (
    <StaffActionForm
      id="freeze"
      heading="h4"
      title={t("Freeze or unfreeze")}
      submit={t("Set the freezes")}
      act={async (form) => {
        const done = await ops<typeof staffFreezeAccount>(
          "POST",
          `/ops/api/users/${encodeURIComponent(props.userId)}/freeze`,
          {
            body: {
              trading: form.get("trading") === "on",
              withdrawals: form.get("withdrawals") === "on",
              reason: reasonOf(form),
            },
          },
        );
        props.onDone();
        return t("Trading {trading}, withdrawals {withdrawals}.", {
          trading: done.trading ? t("frozen") : t("open"),
          withdrawals: done.withdrawals ? t("frozen") : t("open"),
        });
      }}
    >
      <label>
        <input name="trading" type="checkbox" /> {t("Freeze trading")}
      </label>
      <label>
        <input name="withdrawals" type="checkbox" /> {t("Freeze withdrawals")}
      </label>
    </StaffActionForm>
  );
}

function RefundForm(props: { onDone: () => void }) {
  return (
    <StaffActionForm
      id="refund"
      heading="h4"
      title={t("Refund a trade")}
      submit={t("Refund")}
      act={async (form) => {
        const amount = String(form.get("amount") ?? "").trim();
        const done = await ops<typeof staffRefundTrade>(
          "POST",
          `/ops/api/trades/${encodeURIComponent(String(form.get("trade_id") ?? ""))}/refund`,
          {
            body: {
              ...(amount ? { amount } : {}),
              from: form.get("from") === "house" ? "house" : "seller",
              reason: reasonOf(form),
            },
          },
        );
        props.onDone();
        return t("Refunded {amount}: {seller} from the seller, {house} from the house.", {
          amount: money(done.amount),
          seller: money(done.from_seller),
          house: money(done.from_house),
        });
      }}
    >
      <label>
        {t("Trade")}
        <input name="trade_id" required inputMode="numeric" pattern="[1-9][0-9]{0,14}" />
      </label>
      <label>
        {t("Amount (yuan, empty: all that is left)")}
        <input name="amount" inputMode="decimal" pattern="[0-9]+([.][0-9]{1,2})?" />
      </label>
      <label>
        {t("Paid by")}
        <select name="from">
          <option value="seller">{t("the seller")}</option>
          <option value="house">{t("the house")}</option>
        </select>
      </label>
    </StaffActionForm>
  );
}
