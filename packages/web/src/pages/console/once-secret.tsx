import { useState } from "preact/hooks";
import { t } from "../../i18n.ts";

/** A new API token, shown only now, with a copy button. */
export function OnceSecret(props: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  if (!props.secret) return null;
  return (
    <div class="secret" role="group" aria-label={t("New API token")}>
      <p>{t("The new API token, shown only now:")}</p>
      <code>{props.secret}</code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(props.secret).then(() => setCopied(true));
        }}
      >
        {copied ? t("Copied") : t("Copy")}
      </button>
      <button type="button" onClick={props.onDone}>
        {t("Done")}
      </button>
    </div>
  );
}
