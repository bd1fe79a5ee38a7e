import { t } from "../../i18n.ts";
import { navigate } from "../../router.ts";
import { signIn } from "../../session.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/** Sign in with nickname and password (`/account/api/login`), which sets the session cookie. */
export function SignInPage(props: { next: string | null }) {
  const [, error, run, busy] = useAction();
  return (
    <form
      class="panel narrow"
      aria-labelledby="signin-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        await run(async () => {
          await signIn(String(form.get("nickname") ?? ""), String(form.get("password") ?? ""));
          navigate(props.next && props.next.startsWith("/") ? props.next : "/");
          return "";
        });
      }}
    >
      <h1 id="signin-title">{t("Sign in")}</h1>
      <label>
        {t("Nickname")}
        <input name="nickname" required autocomplete="username" />
      </label>
      <label>
        {t("Password")}
        <input name="password" type="password" required autocomplete="current-password" />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        {t("Sign in")}
      </button>
      <Feedback message="" error={error} />
      <p class="muted small">
        {t("Accounts are made in the sandbox: the console, or `npm run skinmarket -- admin user create`.")}
      </p>
    </form>
  );
}
