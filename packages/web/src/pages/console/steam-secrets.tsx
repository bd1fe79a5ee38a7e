import type { OperationResponse, sandboxShowSteamSecrets } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";

type Secrets = OperationResponse<typeof sandboxShowSteamSecrets>;

/**
 * A platform account's Steam secrets, as its bot holds them on the Steam face (docs/sandbox.md,
 * "The Steam face"): read when asked, since the first read draws them.
 */
export function SteamSecrets(props: { token: string; platformid: string }) {
  const [secrets, setSecrets] = useState<Secrets | undefined>();
  const [error, setError] = useState("");
  if (!secrets)
    return (
      <>
        <button
          type="button"
          onClick={() => {
            setError("");
            sandbox<typeof sandboxShowSteamSecrets>(
              "GET",
              `/sandbox/platform/accounts/${props.platformid}/steam`,
              props.token,
            ).then(setSecrets, (failure: Error) => setError(failure.message));
          }}
        >
          {t("Show Steam secrets")}
        </button>
        {error ? <span role="alert">{error}</span> : null}
      </>
    );
  return (
    <dl aria-label={t("Steam secrets of {p}", { p: props.platformid })}>
      <dt>{t("Account name")}</dt>
      <dd>
        <code>{secrets.account_name}</code>
      </dd>
      <dt>{t("Password")}</dt>
      <dd>
        <code>{secrets.password}</code>
      </dd>
      <dt>shared_secret</dt>
      <dd>
        <code>{secrets.shared_secret}</code>
      </dd>
      <dt>identity_secret</dt>
      <dd>
        <code>{secrets.identity_secret}</code>
      </dd>
    </dl>
  );
}
