import type { sandboxGrantItems } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";
import type { Suggestion } from "../../components/use-suggestions.ts";
import { GoodsCombobox } from "./goods-combobox.tsx";

/**
 * New items of one goods into one of the user's platform accounts. The goods is chosen from the
 * suggestions, in either language, and granted by its id; the outcome shows under the form.
 */
export function GrantItems(props: { token: string; platformids: string[]; onGranted: () => void }) {
  const [message, error, run, busy] = useAction();
  const [chosen, setChosen] = useState<Suggestion | undefined>(undefined);
  const [problem, setProblem] = useState("");
  return (
    <form
      class="row"
      aria-label={t("Grant items")}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const count = Number(form.get("count") || 1);
        if (!chosen) return setProblem(t("Item: choose one of the suggestions."));
        if (!Number.isInteger(count) || count < 1 || count > 1000)
          return setProblem(t("Count: enter a whole number from 1 to 1000."));
        setProblem("");
        void run(async () => {
          const answer = await sandbox<typeof sandboxGrantItems>(
            "POST",
            `/sandbox/platform/accounts/${String(form.get("platformid"))}/items`,
            props.token,
            { body: { goods_id: Number(chosen.goods_ids), count } },
          );
          props.onGranted();
          return t("{n} × {i} granted.", { n: answer.assets.length, i: chosen.option });
        });
      }}
    >
      <label>
        {t("Platform account")}
        <select name="platformid">
          {props.platformids.map((platformid) => (
            <option key={platformid} value={platformid}>
              {platformid}
            </option>
          ))}
        </select>
      </label>
      <GoodsCombobox
        id="grant-goods"
        label={t("Item")}
        chosen={chosen}
        onChoose={(suggestion) => {
          setChosen(suggestion);
          if (suggestion) setProblem("");
        }}
      />
      <label>
        {t("Count")}
        <input name="count" type="number" min={1} max={1000} defaultValue="1" size={4} />
      </label>
      <button type="submit" disabled={busy}>
        {t("Grant items")}
      </button>
      {problem ? <p role="alert">{problem}</p> : null}
      <Feedback message={message} error={error} />
    </form>
  );
}
