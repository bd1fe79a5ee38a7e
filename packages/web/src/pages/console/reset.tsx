import type { sandboxReset } from "@skinmarket/contract";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/** Empties the sandbox's world, after a confirmation. */
export function Reset(props: { token: string }) {
  const [message, error, run] = useAction();
  return (
    <section aria-labelledby="reset-title" class="panel danger">
      <h2 id="reset-title">{t("Reset the world")}</h2>
      <p>
        {t("Empties users, tokens, money, listings and trades (the catalog stays) and resets the clock.")}
      </p>
      <button
        type="button"
        onClick={() => {
          if (!window.confirm(t("Reset everything?"))) return;
          void run(async () => {
            await sandbox<typeof sandboxReset>("POST", "/sandbox/reset", props.token);
            return t("The world was reset.");
          });
        }}
      >
        {t("Reset")}
      </button>
      <Feedback message={message} error={error} />
    </section>
  );
}
