import type {
  getStaffMe,
  listStaffActions,
  staffSignIn,
  staffSignOut,
  staffSignOutUser,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { ApiError, ops } from "../../api.ts";
import { ListTable } from "../../components/paged-list.tsx";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { UserSearch } from "./ops-users.tsx";
import { reasonOf, StaffActionForm } from "./staff-action-form.tsx";

/**
 * The back office (docs/design/back-office.md#staff-and-roles): a staff member signs in with their
 * own account (not a user's, not the sandbox admin token) and sees what their role allows: finding
 * a user and their page with money by hand, the audit of staff actions, and signing a user out.
 */
export function OpsPage() {
  const [version, setVersion] = useState(0);
  const me = useLoad(
    () =>
      ops<typeof getStaffMe>("GET", "/ops/api/me").catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }),
    [version],
  );
  const reload = () => setVersion((value) => value + 1);
  if (me.value === undefined)
    return me.error ? <Feedback message="" error={me.error} /> : <p aria-busy="true">{t("Loading…")}</p>;
  if (me.value === null) return <StaffSignIn onSignedIn={reload} />;
  const staff = me.value;
  return (
    <div class="ops">
      <h1>{t("Back office")}</h1>
      <p>
        {t("Signed in as {email}, role {role}.", { email: staff.email, role: staff.role })}{" "}
        <button
          type="button"
          onClick={async () => {
            await ops<typeof staffSignOut>("POST", "/ops/api/logout");
            reload();
          }}
        >
          {t("Sign out of the back office")}
        </button>
      </p>
      {staff.operations.includes("user.read") ? <UserSearch operations={staff.operations} /> : null}
      {staff.operations.includes("user.sign_out") ? <SignOutUser /> : null}
      {staff.operations.includes("audit.read") ? <Audit /> : null}
    </div>
  );
}

function StaffSignIn(props: { onSignedIn: () => void }) {
  const [, error, run, busy] = useAction();
  return (
    <form
      class="panel narrow"
      aria-labelledby="ops-signin-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        await run(async () => {
          await ops<typeof staffSignIn>("POST", "/ops/api/login", {
            body: { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") },
          });
          props.onSignedIn();
          return "";
        });
      }}
    >
      <h1 id="ops-signin-title">{t("Back office sign-in")}</h1>
      <label>
        {t("Staff email address")}
        <input name="email" type="email" required autocomplete="username" />
      </label>
      <label>
        {t("Password")}
        <input name="password" type="password" required autocomplete="current-password" />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        {t("Sign in")}
      </button>
      <Feedback message="" error={error} />
    </form>
  );
}

function SignOutUser() {
  return (
    <StaffActionForm
      id="sign-out-user"
      heading="h2"
      title={t("Sign a user out everywhere")}
      submit={t("Sign out everywhere")}
      act={async (form) => {
        const userId = String(form.get("user_id") ?? "");
        const done = await ops<typeof staffSignOutUser>(
          "POST",
          `/ops/api/users/${encodeURIComponent(userId)}/sign_out`,
          { body: { reason: reasonOf(form) } },
        );
        return t("User {user}: {sessions} sessions ended, {tokens} tokens revoked.", {
          user: done.user_id,
          sessions: done.sessions_ended,
          tokens: done.tokens_revoked,
        });
      }}
    >
      <label>
        {t("User id")}
        <input name="user_id" required inputMode="numeric" pattern="[1-9][0-9]{0,14}" />
      </label>
    </StaffActionForm>
  );
}

function Audit() {
  const audit = useLoad(
    () => ops<typeof listStaffActions>("GET", "/ops/api/audit", { query: { limit: 50 } }),
    [],
  );
  const items = audit.value?.items;
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">{t("Audit of staff actions")}</h2>
      {audit.error ? <Feedback message="" error={audit.error} /> : null}
      {!items ? null : items.length === 0 ? (
        <p class="muted">{t("No staff action yet.")}</p>
      ) : (
        <ListTable
          label={t("Staff actions, newest first")}
          headers={[t("When"), t("Who"), t("What"), t("Subject"), t("Why"), t("Before"), t("After")]}
        >
          {items.map((item) => (
            <tr key={item.action_id}>
              <td>{new Date(item.acted_at * 1000).toLocaleString()}</td>
              <td>{item.staff_email ?? t("command line")}</td>
              <td>{item.operation}</td>
              <td>{item.subject}</td>
              <td>{item.reason}</td>
              <td>
                <code>{item.before === null ? "—" : JSON.stringify(item.before)}</code>
              </td>
              <td>
                <code>{item.after === null ? "—" : JSON.stringify(item.after)}</code>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
