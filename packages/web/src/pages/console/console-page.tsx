import type { sandboxGetClock } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { settings } from "../../config.ts";
import { language, t } from "../../i18n.ts";
import { adminToken, setAdminToken } from "../../session.ts";
import { useStore } from "../../store.ts";
import { Feedback, useAction } from "../../use-data.tsx";
import { Clock } from "./clock.tsx";
import { EventsAndWebhooks } from "./events-and-webhooks.tsx";
import { Mailbox } from "./mailbox.tsx";
import { Offers } from "./offers.tsx";
import { Reset } from "./reset.tsx";
import { SimulationPanel } from "./simulation-panel.tsx";
import { Users } from "./users.tsx";

/**
 * The developer console over the sandbox API (sandbox on). It needs the sandbox admin token, which
 * the person pastes once; it is kept in this tab's sessionStorage only and sent as a bearer token.
 */
export function ConsolePage() {
  const token = useStore(adminToken);
  const [userId, setUserId] = useState("");
  useStore(language);
  if (!settings.sandbox)
    return <p class="notice">{t("The sandbox is off on this server: the console needs it.")}</p>;
  if (!token) return <AdminTokenForm />;
  return (
    <div class="console">
      <div class="row">
        <h1>{t("Developer console")}</h1>
        <button type="button" onClick={() => setAdminToken("")}>
          {t("Forget the admin token")}
        </button>
      </div>
      <Users token={token} selected={userId} onSelect={setUserId} />
      <Offers token={token} userId={userId} />
      <Clock token={token} />
      <SimulationPanel token={token} />
      <EventsAndWebhooks adminToken={token} />
      <Mailbox token={token} />
      <Reset token={token} />
    </div>
  );
}

/** The sandbox admin token, checked by reading the sandbox clock with it before it is kept. */
function AdminTokenForm() {
  const [value, setValue] = useState("");
  const [, error, run] = useAction();
  return (
    <form
      class="panel narrow"
      aria-labelledby="admin-title"
      onSubmit={async (event) => {
        event.preventDefault();
        await run(async () => {
          await sandbox<typeof sandboxGetClock>("GET", "/sandbox/clock", value.trim());
          setAdminToken(value.trim());
          return "";
        });
      }}
    >
      <h1 id="admin-title">{t("Developer console")}</h1>
      <p>
        {t(
          "Paste the sandbox admin token (printed at the first start, kept in data/sandbox-admin-token). It stays in this tab only.",
        )}
      </p>
      <label>
        {t("Sandbox admin token")}
        <input
          value={value}
          required
          autocomplete="off"
          onInput={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary">
        {t("Open the console")}
      </button>
      <Feedback message="" error={error} />
    </form>
  );
}
