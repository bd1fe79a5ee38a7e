import type {
  sandboxCreatePlatformAccount,
  sandboxCreateToken,
  sandboxGetUser,
  sandboxRevokeToken,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { HiddenHeader, ListTable } from "../../components/paged-list.tsx";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { FundsForm } from "./funds-form.tsx";
import { GrantItems } from "./grant-items.tsx";
import { OnceSecret } from "./once-secret.tsx";
import { SteamSecrets } from "./steam-secrets.tsx";

/** One user: balances and funding, API tokens, platform accounts and granting items. */
export function UserPanel(props: { token: string; userId: string }) {
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const [accountMessage, accountError, runAccount] = useAction();
  const [secret, setSecret] = useState("");
  const refresh = () => setVersion((value) => value + 1);
  const path = `/sandbox/users/${props.userId}`;
  const user = useLoad(
    () => sandbox<typeof sandboxGetUser>("GET", path, props.token),
    [props.userId, version],
  ).value;

  if (!user) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <div class="user-panel">
      <h3>{t("Balances")}</h3>
      <p>
        {t("Balance")} {money(user.balances.balance)} · {t("Buy-order funds")} {money(user.balances.margin)} ·{" "}
        {t("Wallet")} {money(user.balances.wallet)} · {t("In trades (escrow)")} {money(user.balances.escrow)}
      </p>
      <FundsForm token={props.token} userId={props.userId} onMoved={refresh} />

      <h3>{t("API tokens")}</h3>
      <ListTable
        label={t("API tokens")}
        headers={[t("Token"), t("Created"), t("Last used"), t("State"), <HiddenHeader text={t("Actions")} />]}
      >
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
                  onClick={() => {
                    if (
                      !window.confirm(
                        t("Revoke token {p}? Programs using it stop working.", { p: token.prefix }),
                      )
                    )
                      return;
                    void run(async () => {
                      await sandbox<typeof sandboxRevokeToken>(
                        "DELETE",
                        `/sandbox/tokens/${token.token_id}`,
                        props.token,
                      );
                      refresh();
                      return t("Token revoked.");
                    });
                  }}
                >
                  {t("Revoke token {p}", { p: token.prefix })}
                </button>
              )}
            </td>
          </tr>
        ))}
      </ListTable>
      <button
        type="button"
        onClick={() =>
          run(async () => {
            const issued = await sandbox<typeof sandboxCreateToken>("POST", `${path}/tokens`, props.token);
            setSecret(issued.token);
            refresh();
            return t("Token created.");
          })
        }
      >
        {t("Create API token")}
      </button>
      <OnceSecret secret={secret} onDone={() => setSecret("")} />
      <Feedback message={message} error={error} />

      <h3>{t("Platform accounts")}</h3>
      <ul>
        {user.platform_accounts.map((account) => (
          <li key={account.platformid}>
            <code>{account.platformid}</code> · {account.cookie_state ?? t("no cookies")}
            <SteamSecrets token={props.token} platformid={account.platformid} />
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() =>
          runAccount(async () => {
            const created = await sandbox<typeof sandboxCreatePlatformAccount>(
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
      <Feedback message={accountMessage} error={accountError} />
      {user.platform_accounts.length > 0 ? (
        <GrantItems
          token={props.token}
          platformids={user.platform_accounts.map((account) => account.platformid)}
          onGranted={refresh}
        />
      ) : null}
    </div>
  );
}
