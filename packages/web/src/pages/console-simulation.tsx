import type { SandboxClient } from "@skinmarket/client/sandbox";
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n.ts";

type Status = Awaited<ReturnType<SandboxClient["getSimulation"]>>;
type Scenarios = Awaited<ReturnType<SandboxClient["listScenarios"]>>["items"];

/** How often the panel reads the simulation's status while it is open. */
const REFRESH_MS = 2000;

/**
 * The console's living-market panel (docs/design/simulation.md#scenarios and docs/design/website.md#how-the-website-authenticates): the simulation's state
 * (running or not, steps, actions by type, recent actions, goods with their fair values), its
 * scenario and progress, and the controls to start, stop and run a scenario. It calls the sandbox
 * API through the SDK's `SandboxClient`, loaded only when the panel opens, so the first page does
 * not carry the SDK.
 */
export function SimulationPanel(props: { token: string }) {
  const [client, setClient] = useState<SandboxClient | undefined>();
  const [status, setStatus] = useState<Status | undefined>();
  const [scenarios, setScenarios] = useState<Scenarios>([]);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    let live = true;
    void import("@skinmarket/client/sandbox").then(({ SandboxClient }) => {
      if (!live) return;
      const made = new SandboxClient({ baseUrl: location.origin, token: props.token });
      setClient(made);
      void made.listScenarios().then((answer) => live && setScenarios(answer.items));
    });
    return () => {
      live = false;
    };
  }, [props.token]);

  useEffect(() => {
    if (!client) return;
    let live = true;
    const read = () =>
      client
        .getSimulation()
        .then((answer) => live && setStatus(answer))
        .catch(() => undefined);
    void read();
    const timer = setInterval(read, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [client]);

  const act = async (work: (sdk: SandboxClient) => Promise<Status>, done: string) => {
    if (!client) return;
    setMessage("");
    setError("");
    try {
      setStatus(await work(client));
      setMessage(done);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const state = !status?.settings ? t("Not started") : status.running ? t("Running") : t("Stopped");
  return (
    <section aria-labelledby="simulation-title" class="panel">
      <h2 id="simulation-title">{t("Living market")}</h2>
      <p role="status" aria-label={t("Simulation state")}>
        {t("Simulation: {s}, {n} steps", { s: state, n: status?.steps ?? 0 })}
        {status?.settings ? ` (${t("seed {s}", { s: status.settings.seed })})` : ""}
      </p>
      <form
        class="row"
        aria-label={t("Start the simulation")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const number = (name: string) => Number(form.get(name));
          void act(
            (sdk) =>
              sdk.startSimulation({
                seed: number("seed"),
                rate: number("rate"),
                goods: number("goods"),
                clock_speed: number("clock_speed"),
              }),
            t("The simulation runs."),
          );
        }}
      >
        <label>
          {t("Seed")}
          <input name="seed" type="number" min={0} defaultValue="1" required />
        </label>
        <label>
          {t("Actions per second")}
          <input name="rate" type="number" min={0.01} max={100} step="any" defaultValue="2" required />
        </label>
        <label>
          {t("Goods")}
          <input name="goods" type="number" min={1} max={200} defaultValue="8" required />
        </label>
        <label>
          {t("Clock speed")}
          <input name="clock_speed" type="number" min={1} max={3600} defaultValue="60" required />
        </label>
        <button type="submit" class="primary" disabled={!client || status?.running === true}>
          {t("Start simulation")}
        </button>
        <button
          type="button"
          disabled={!client || status?.running !== true}
          onClick={() => void act((sdk) => sdk.stopSimulation(), t("The simulation stopped."))}
        >
          {t("Stop simulation")}
        </button>
      </form>
      {message ? <p role="status">{message}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <ScenarioControls
        scenarios={scenarios}
        status={status}
        disabled={!client || !status?.settings}
        onRun={(scenario) =>
          void act(
            (sdk) => sdk.runScenario(scenario),
            t("Scenario {s} started.", { s: typeof scenario === "string" ? scenario : scenario.name }),
          )
        }
        onEnd={() => void act((sdk) => sdk.endScenario(), t("The scenario ended."))}
        onError={setError}
      />
      {status?.settings ? <SimulationTables status={status} /> : null}
    </section>
  );
}

function ScenarioControls(props: {
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

function SimulationTables(props: { status: Status }) {
  const { status } = props;
  const actions = Object.entries(status.actions).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div class="grid-2">
      <table>
        <caption>{t("Actions by type")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Action")}</th>
            <th scope="col">{t("Count")}</th>
          </tr>
        </thead>
        <tbody>
          {actions.map(([type, count]) => (
            <tr key={type}>
              <td>{type}</td>
              <td>{count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>{t("Goods and fair values")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Goods")}</th>
            <th scope="col">{t("Fair value")}</th>
          </tr>
        </thead>
        <tbody>
          {status.goods.map((goods) => (
            <tr key={goods.goods_id}>
              <td>
                <a href={`/goods/${goods.goods_id}`}>{goods.goods_id}</a>
              </td>
              <td>{goods.fair_value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>{t("Recent actions")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Step")}</th>
            <th scope="col">{t("Action")}</th>
            <th scope="col">{t("Agent")}</th>
            <th scope="col">{t("Goods")}</th>
            <th scope="col">{t("Price")}</th>
            <th scope="col">{t("Outcome")}</th>
          </tr>
        </thead>
        <tbody>
          {[...status.recent].reverse().map((action, index) => (
            <tr key={`${action.step}-${index}`}>
              <td>{action.step}</td>
              <td>{action.type}</td>
              <td>{action.agent}</td>
              <td>{action.goods_id ?? ""}</td>
              <td>{action.price ?? ""}</td>
              <td>{action.outcome}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
