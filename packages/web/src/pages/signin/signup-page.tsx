import type { signUp } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/**
 * Making an account (`/account/api/signup`): a nickname, an email address and a password. The
 * server mails a link that confirms the address (in the sandbox, to its mailbox); the account
 * signs in once it is confirmed (docs/design/back-office.md#accounts-for-people).
 */
export function SignUpPage() {
  const [message, error, run, busy] = useAction();
  return (
    <form
      class="panel narrow"
      aria-labelledby="signup-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        await run(async () => {
          const made = await web<typeof signUp>("POST", "/account/api/signup", {
            body: {
              nickname: String(form.get("nickname") ?? ""),
              email: String(form.get("email") ?? ""),
              password: String(form.get("password") ?? ""),
            },
          });
          return t("A link to confirm {email} is on its way. Open it, then sign in.", { email: made.email });
        });
      }}
    >
      <h1 id="signup-title">{t("Sign up")}</h1>
      <label>
        {t("Nickname")}
        <input name="nickname" required maxLength={32} autocomplete="username" />
      </label>
      <label>
        {t("Email address")}
        <input name="email" type="email" required maxLength={254} autocomplete="email" />
      </label>
      <label>
        {t("Password (at least 10 characters)")}
        <input
          name="password"
          type="password"
          required
          minLength={10}
          maxLength={256}
          autocomplete="new-password"
        />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        {t("Sign up")}
      </button>
      <Feedback message={message} error={error} />
      <p class="muted small">
        {t("Have an account?")} <a href="/signin">{t("Sign in")}</a>
      </p>
    </form>
  );
}
