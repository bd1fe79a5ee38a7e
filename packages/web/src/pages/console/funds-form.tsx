import type { OperationBody, sandboxFundAccount, sandboxWithdrawFunds } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";

type FundsBody = OperationBody<typeof sandboxFundAccount>;

/** Yuan as the operations take it: digits, at most two decimals, more than zero. */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** Why `text` is not an amount to move, or "" when it is one. */
export function amountProblem(text: string): string {
  if (text.trim() === "") return t("Amount: enter an amount in yuan.");
  if (text.trim().startsWith("-"))
    return t("Amount: enter a positive amount; to take money out, use Withdraw funds.");
  if (!AMOUNT.test(text.trim())) return t("Amount: enter yuan with at most 2 decimals, such as 12.50.");
  if (Number(text.trim()) === 0) return t("Amount: enter more than 0.");
  return "";
}

/**
 * Money in and out of one user's account (docs/design/website-console.md#the-console): Deposit and Withdraw
 * are two explicit actions on a positive amount, never a sign. The amount is checked here first
 * (its error sits under the field, which is marked invalid); a withdrawal asks for confirmation;
 * the outcome shows under the form.
 */
export function FundsForm(props: { token: string; userId: string; onMoved: () => void }) {
  const [message, error, run, busy] = useAction();
  const [problem, setProblem] = useState("");
  const accounts: Record<FundsBody["account"], string> = {
    balance: t("Balance"),
    margin: t("Buy-order funds"),
    wallet: t("Wallet"),
  };

  const move = (form: HTMLFormElement, kind: "deposit" | "withdraw") => {
    const data = new FormData(form);
    const amount = String(data.get("amount") ?? "").trim();
    // The select offers only the accounts the operations take; the server checks it anyway.
    const account = String(data.get("account")) as FundsBody["account"];
    const wrong = amountProblem(amount);
    setProblem(wrong);
    if (wrong) {
      form.querySelector<HTMLInputElement>("input[name=amount]")?.focus();
      return;
    }
    const shown = money(amount);
    if (
      kind === "withdraw" &&
      !window.confirm(t("Withdraw {a} from {c}?", { a: shown, c: accounts[account] }))
    )
      return;
    void run(async () => {
      const path = `/sandbox/users/${props.userId}/${kind === "deposit" ? "funds" : "withdrawals"}`;
      const body = { account, amount };
      if (kind === "deposit") await sandbox<typeof sandboxFundAccount>("POST", path, props.token, { body });
      else await sandbox<typeof sandboxWithdrawFunds>("POST", path, props.token, { body });
      props.onMoved();
      return kind === "deposit"
        ? t("{a} deposited into {c}.", { a: shown, c: accounts[account] })
        : t("{a} withdrawn from {c}.", { a: shown, c: accounts[account] });
    });
  };

  return (
    <form
      class="row"
      aria-label={t("Move money")}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
        move(event.currentTarget, submitter?.value === "withdraw" ? "withdraw" : "deposit");
      }}
    >
      <label>
        {t("Account")}
        <select name="account">
          {Object.entries(accounts).map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("Amount (yuan)")}
        <input
          name="amount"
          required
          inputMode="decimal"
          size={10}
          placeholder="500.00"
          autocomplete="off"
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "funds-amount-problem" : undefined}
          onInput={() => setProblem("")}
        />
      </label>
      <button type="submit" name="kind" value="deposit" disabled={busy}>
        {t("Deposit")}
      </button>
      <button type="submit" name="kind" value="withdraw" disabled={busy}>
        {t("Withdraw funds")}
      </button>
      {problem ? (
        <p id="funds-amount-problem" class="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <Feedback message={message} error={error} />
    </form>
  );
}
