import type { ComponentChildren } from "preact";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/**
 * A staff action's form: its own fields, then the reason every staff action is recorded with
 * (docs/design/back-office.md#the-audit), the button, and the outcome beside it. `act` sends the
 * form and answers the sentence that says what was done.
 */
export function StaffActionForm(props: {
  id: string;
  heading: "h2" | "h4";
  title: string;
  submit: string;
  act: (form: FormData) => Promise<string>;
  children: ComponentChildren;
}) {
  const [message, error, run, busy] = useAction();
  const Heading = props.heading;
  return (
    <form
      aria-labelledby={`${props.id}-title`}
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        await run(() => props.act(form));
      }}
    >
      <Heading id={`${props.id}-title`}>{props.title}</Heading>
      {props.children}
      <label>
        {t("Reason (kept in the audit)")}
        <input name="reason" required minLength={3} maxLength={500} />
      </label>
      <button type="submit" disabled={busy}>
        {props.submit}
      </button>
      <Feedback message={message} error={error} />
    </form>
  );
}

/** The reason the form carries, as every staff operation's body names it. */
export function reasonOf(form: FormData): string {
  return String(form.get("reason") ?? "");
}
