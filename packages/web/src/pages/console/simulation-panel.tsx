import type { SandboxClient } from "@skinmarket/client/sandbox";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { ScenarioControls } from "./scenario-controls.tsx";
import { SimulationTables } from "./simulation-tables.tsx";

export type Status = Awaited<ReturnType<SandboxClient["getSimulation"]>>;
export type Scenarios = Awaited<ReturnType<SandboxClient["listScenarios"]>>["items"];

/** How often the panel reads the simulation's status while it is open. */
const REFRESH_MS = 2000;

/**
 * The console's living-market panel (docs/design/simulation.md#scenarios, docs/design/website.md#how-the-website-authenticates): the simulation's state
 * (running or not, steps, actions by type, recent actions, goods with their fair values), its
 * scenario and progress, and the controls to start, stop and run a scenario. It calls the sandbox
 * API through the SDK's `SandboxClient`, loaded only when the panel opens, so the first page does
 * not carry the SDK.
 */
export function SimulationPanel(props: { token: string }) {
  const client = useLoad(
    () =>
      import("@skinmarket/client/sandbox").then(
        ({ SandboxClient }) => new SandboxClient({ baseUrl: location.origin, token: props.token }),
      ),
    [props.token],
  ).value;
  const scenarios =
    useLoad(
      () => (client ? client.listScenarios().then((answer) => answer.items) : Promise.resolve([])),
      [client],
    ).value ?? [];
  // Read every few seconds while the panel is open; a failed read keeps the last state shown.
  const simulation = useLoad(() => (client ? client.getSimulation() : Promise.resolve(undefined)), [client], {
    every: client ? REFRESH_MS : undefined,
  });
  const status = simulation.value;
  const [message, error, run] = useAction();

  const act = (work: (sdk: SandboxClient) => Promise<Status>, done: string) =>
    run(async () => {
      if (!client) return "";
      simulation.set(await work(client));
      return done;
    });

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
      <Feedback message={message} error={error} />
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
        onError={(text) => void run(() => Promise.reject(new Error(text)))}
      />
      {status?.settings ? <SimulationTables status={status} /> : null}
    </section>
  );
}
