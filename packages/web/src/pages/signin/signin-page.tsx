import { useEffect } from "preact/hooks";
import { t } from "../../i18n.ts";
import { navigate } from "../../router.ts";
import { completeSignInThroughSteam, signIn, steamSignInUrl } from "../../session.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/**
 * Sign in with nickname and password (`/account/api/login`), or through Steam: Steam's OpenID page
 * returns the browser here with its assertion in the query, which is posted to the server
 * (`/account/api/steam/login`); both set the session cookie.
 */
export function SignInPage(props: { next: string | null }) {
  const [, error, run, busy] = useAction();
  const [, steamError, runSteam, steamBusy] = useAction();
  useEffect(() => {
    const assertion = openIdAssertion(location.search);
    if (!assertion) return;
    void runSteam(async () => {
      if (assertion["openid.mode"] !== "id_res")
        throw new Error(t("Signing in through Steam was cancelled."));
      await completeSignInThroughSteam(assertion);
      navigate("/");
      return "";
    });
  }, []);
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
      <button
        type="button"
        disabled={steamBusy}
        onClick={() =>
          runSteam(async () => {
            location.assign(await steamSignInUrl());
            return "";
          })
        }
      >
        {t("Sign in through Steam")}
      </button>
      <Feedback message="" error={steamError} />
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
        {t("No account yet?")} <a href="/signup">{t("Sign up")}</a>
      </p>
    </form>
  );
}

/** Steam's answer in the page's query: its `openid.*` parameters, or undefined when there are none. */
function openIdAssertion(search: string): Record<string, string> | undefined {
  const fields = [...new URLSearchParams(search)].filter(([name]) => name.startsWith("openid."));
  return fields.length > 0 ? Object.fromEntries(fields) : undefined;
}
