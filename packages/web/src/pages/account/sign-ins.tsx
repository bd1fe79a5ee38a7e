import type { closeAccount, listSignIns } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { ListTable } from "../../components/paged-list.tsx";
import { t } from "../../i18n.ts";
import { navigate } from "../../router.ts";
import { loadUser } from "../../session.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";

/**
 * The account's security: its sign-ins, newest first (when, from which address, with which
 * browser, how), and closing the account (docs/design/back-office.md#closing-an-account).
 */
export function SignIns(props: { nickname: string }) {
  const signIns = useLoad(
    () => web<typeof listSignIns>("GET", "/account/api/sign_ins", { query: { limit: 20 } }),
    [],
  );
  const items = signIns.value?.items;
  return (
    <>
      <section aria-labelledby="sign-ins-title">
        <h2 id="sign-ins-title">{t("Sign-ins")}</h2>
        {signIns.error ? <Feedback message="" error={signIns.error} /> : null}
        {!items ? (
          signIns.error ? null : (
            <p aria-busy="true">{t("Loading…")}</p>
          )
        ) : (
          <ListTable
            label={t("Your last sign-ins, newest first")}
            headers={[t("When"), t("Address"), t("Browser"), t("How")]}
          >
            {items.map((item) => (
              <tr key={`${item.signed_in_at}-${item.ip}-${item.user_agent}`}>
                <td>{new Date(item.signed_in_at * 1000).toLocaleString()}</td>
                <td>{item.ip}</td>
                <td>{item.user_agent || "—"}</td>
                <td>{item.method === "steam" ? t("Through Steam") : t("Password")}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </section>
      {/* Drawn once the list is there, so that the list's arrival moves nothing below it. */}
      {items || signIns.error ? <CloseAccount nickname={props.nickname} /> : null}
    </>
  );
}

/** Closing the account, confirmed by typing the nickname (docs/design/back-office.md#closing-an-account). */
function CloseAccount(props: { nickname: string }) {
  const [, closeError, run, busy] = useAction();
  return (
    <form
      aria-labelledby="close-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        await run(async () => {
          await web<typeof closeAccount>("POST", "/account/api/close", {
            body: { nickname: String(form.get("nickname") ?? "") },
          });
          await loadUser();
          navigate("/");
          return "";
        });
      }}
    >
      <h2 id="close-title">{t("Close the account")}</h2>
      <p class="muted">
        {t(
          "Withdraw your money and finish or cancel your listings, trades and buy orders first. Every session and API token ends.",
        )}
      </p>
      <label>
        {t("Type your nickname, {nickname}, to close the account", { nickname: props.nickname })}
        <input name="nickname" required autocomplete="off" />
      </label>
      <button type="submit" disabled={busy}>
        {t("Close the account")}
      </button>
      <Feedback message="" error={closeError} />
    </form>
  );
}
