import { t } from "../../i18n.ts";
import type { Status } from "./simulation-panel.tsx";

/** The simulation's actions by type, its goods with their fair values, and its recent actions. */
export function SimulationTables(props: { status: Status }) {
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
