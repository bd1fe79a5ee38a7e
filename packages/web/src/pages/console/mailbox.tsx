import type { sandboxListMails } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { ListTable } from "../../components/paged-list.tsx";
import { t } from "../../i18n.ts";
import { Feedback, useLoad } from "../../use-data.tsx";

/**
 * The sandbox's mailbox (docs/design/back-office.md#the-mail-port): the mails the marketplace sent
 * (address confirmations, notices), newest first, so a developer can follow a sign-up's link.
 */
export function Mailbox(props: { token: string }) {
  const [version, setVersion] = useState(0);
  const mails = useLoad(
    () => sandbox<typeof sandboxListMails>("GET", "/sandbox/mails?limit=20", props.token),
    [props.token, version],
  );
  const items = mails.value?.items;
  return (
    <section aria-labelledby="mailbox-title">
      <div class="row">
        <h2 id="mailbox-title">{t("Mailbox")}</h2>
        <button type="button" onClick={() => setVersion((value) => value + 1)}>
          {t("Refresh mails")}
        </button>
      </div>
      {mails.error ? <Feedback message="" error={mails.error} /> : null}
      {items && items.length === 0 ? <p class="muted">{t("No mail sent yet.")}</p> : null}
      {items && items.length > 0 ? (
        <ListTable
          label={t("Mails sent, newest first")}
          headers={[t("When"), t("To"), t("Subject"), t("Text")]}
        >
          {items.map((mail) => (
            <tr key={mail.mail_id}>
              <td>{new Date(mail.sent_at * 1000).toLocaleString()}</td>
              <td>{mail.to}</td>
              <td>{mail.subject}</td>
              <td>
                <pre class="mail-text">{mail.text}</pre>
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </section>
  );
}
