import type { OperationBody, sandboxCreateUser, sandboxListUsers } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { OnceSecret } from "./once-secret.tsx";
import { UserPanel } from "./user-panel.tsx";

type CreateUserBody = OperationBody<typeof sandboxCreateUser>;

/** The sandbox's users: create one, and choose one to see and act on. */
export function Users(props: { token: string; selected: string; onSelect: (userId: string) => void }) {
  const { selected, onSelect: setSelected } = props;
  const [version, setVersion] = useState(0);
  const [message, error, run] = useAction();
  const [secret, setSecret] = useState("");
  // A failed read shows no users (the panel's own failures show below its forms).
  const listed = useLoad(
    () =>
      sandbox<typeof sandboxListUsers>("GET", "/sandbox/users", props.token, {
        query: { page_size: 500 },
      }).catch(() => ({ items: [], total_page: 0 })),
    [version],
  );
  const users = listed.value?.items ?? [];

  return (
    <section aria-labelledby="users-title" class="panel">
      <h2 id="users-title">{t("Users")}</h2>
      <form
        class="row"
        aria-label={t("Create a user")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          void run(async () => {
            const created = await sandbox<typeof sandboxCreateUser>("POST", "/sandbox/users", props.token, {
              body: {
                nickname: String(form.get("nickname")),
                password: String(form.get("password")),
                // The select offers only the levels the operation takes; the server checks it anyway.
                access_level: String(form.get("access_level")) as CreateUserBody["access_level"],
              },
            });
            setSecret(created.token);
            setSelected(created.user_id);
            setVersion((value) => value + 1);
            return t("User {n} created.", { n: `${created.nickname} (${created.user_id})` });
          });
        }}
      >
        <label>
          {t("Nickname")}
          <input name="nickname" required />
        </label>
        <label>
          {t("Password")}
          <input name="password" type="password" required minLength={8} autocomplete="new-password" />
        </label>
        <label>
          {t("Access level")}
          <select name="access_level">
            <option value="developer">developer</option>
            <option value="enterprise">enterprise</option>
          </select>
        </label>
        <button type="submit">{t("Create user")}</button>
      </form>
      <OnceSecret secret={secret} onDone={() => setSecret("")} />
      <Feedback message={message} error={error} />
      <label>
        {t("User")}
        <select value={selected} onChange={(event) => setSelected(event.currentTarget.value)}>
          <option value="">{t("Choose a user")}</option>
          {users.map((user) => (
            <option key={user.user_id} value={user.user_id}>
              {user.nickname} ({user.user_id}, {user.access_level})
            </option>
          ))}
        </select>
      </label>
      {selected ? <UserPanel token={props.token} userId={selected} /> : null}
    </section>
  );
}
