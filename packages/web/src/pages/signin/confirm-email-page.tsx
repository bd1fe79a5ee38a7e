import type { confirmEmail } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/**
 * Where a confirmation mail's link lands: one press posts its code. A button rather than a post
 * on load, so that a mail scanner opening the link confirms nothing.
 */
export function ConfirmEmailPage(props: { code: string | null }) {
  const [message, error, run, busy] = useAction();
  return (
    <section class="panel narrow" aria-labelledby="confirm-title">
      <h1 id="confirm-title">{t("Confirm your address")}</h1>
      {props.code ? (
        <button
          type="button"
          class="primary"
          disabled={busy || message !== ""}
          onClick={() =>
            run(async () => {
              const confirmed = await web<typeof confirmEmail>("POST", "/account/api/email/confirm", {
                body: { code: props.code! },
              });
              return t("{email} is confirmed. You can sign in now.", { email: confirmed.email });
            })
          }
        >
          {t("Confirm my address")}
        </button>
      ) : (
        <p class="notice">{t("This link has no code. Open the link of the mail again.")}</p>
      )}
      <Feedback message={message} error={error} />
      {message ? (
        <p>
          <a href="/signin">{t("Sign in")}</a>
        </p>
      ) : null}
    </section>
  );
}
