import type { SandboxClient } from "@skinmarket/client/sandbox";
import { useState } from "preact/hooks";
import { t } from "../../i18n.ts";
import type { Scenarios, Status } from "./simulation-panel.tsx";

/** Running a built-in or pasted scenario, ending it, and its progress. */
export function ScenarioControls(props: {
  scenarios: Scenarios;
  status: Status | undefined;
  disabled: boolean;
  onRun: (scenario: string | Parameters<SandboxClient["runScenario"]>[0]) => void;
  onEnd: () => void;
  onError: (message: string) => void;
}) {
  const [custom, setCustom] = useState("");
  const scenario = props.status?.scenario;
  return (
    <div class="stack">
      <form
        class="row"
        aria-label={t("Run a scenario")}
        onSubmit={(event) => {
          event.preventDefault();
          props.onRun(String(new FormData(event.currentTarget).get("scenario")));
        }}
      >
        <label>
          {t("Scenario")}
          <select name="scenario">
            {props.scenarios.map((item) => (
              // A file of the server's scenarios folder says so; a broken one shows its problem and
              // cannot be picked.
              <option key={`${item.name} ${item.file}`} value={item.name} disabled={!item.valid}>
                {!item.valid
                  ? t("{s} (yours, invalid: {p})", { s: item.name, p: item.problem ?? "" })
                  : item.source === "user"
                    ? t("{s} (yours): {d}", { s: item.name, d: item.description })
                    : `${item.name}: ${item.description}`}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={props.disabled}>
          {t("Run scenario")}
        </button>
        <button
          type="button"
          disabled={props.disabled || !scenario || scenario.finished}
          onClick={props.onEnd}
        >
          {t("End scenario")}
        </button>
      </form>
      <form
        aria-label={t("Run your own scenario")}
        onSubmit={(event) => {
          event.preventDefault();
          try {
            props.onRun(JSON.parse(custom) as Parameters<SandboxClient["runScenario"]>[0]);
          } catch (failure) {
            props.onError(t("The scenario is not JSON: {m}", { m: (failure as Error).message }));
          }
        }}
      >
        <label>
          {t("Scenario as JSON (the format of docs/sandbox.md)")}
          <textarea rows={4} value={custom} onInput={(event) => setCustom(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={props.disabled || custom.trim() === ""}>
          {t("Run this scenario")}
        </button>
      </form>
      {scenario ? (
        <div role="group" aria-label={t("Scenario progress")}>
          <p>
            {scenario.finished
              ? t("Scenario {s}: finished", { s: scenario.name })
              : t("Scenario {s}: {p} % ({e} of {d} min)", {
                  s: scenario.name,
                  p: Math.round(scenario.progress * 100),
                  e: Math.round(scenario.elapsed_seconds / 60),
                  d: Math.round(scenario.duration_seconds / 60),
                })}
          </p>
          <progress
            max={1}
            value={scenario.progress}
            aria-label={t("Progress of {s}", { s: scenario.name })}
          />
          <ul>
            {scenario.effects.map((effect, index) => (
              <li key={index}>
                {effect.type} ({t(EFFECT_STATES[effect.state] ?? effect.state)})
                {effect.note ? `: ${effect.note}` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

const EFFECT_STATES: Record<string, string> = {
  pending: "Waiting",
  active: "In progress",
  done: "Done",
};
