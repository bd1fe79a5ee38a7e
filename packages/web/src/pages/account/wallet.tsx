import type { getBriefAsset } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";
import { useLiveRefresh } from "./live-refresh.tsx";
import { Movements } from "./movements.tsx";

/** Balances from `asset/get_brief_asset`, and every movement of the money below them. */
export function Wallet() {
  const [version, refresh] = useLiveRefresh();
  const brief = useLoad(() => web<typeof getBriefAsset>("GET", "/api/asset/get_brief_asset"), [version]);
  const asset = brief.value;
  if (brief.error) return <p role="alert">{brief.error}</p>;
  if (!asset) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="wallet-title">
      <div class="row">
        <h2 id="wallet-title">{t("Wallet")}</h2>
        <button type="button" onClick={refresh}>
          {t("Refresh")}
        </button>
      </div>
      <dl class="figures">
        <div>
          <dt>{t("Balance")}</dt>
          <dd>{money(asset.cash_amount)}</dd>
        </div>
        <div>
          <dt>{t("Buy-order funds")}</dt>
          <dd>{money(asset.security_amount)}</dd>
        </div>
        <div>
          <dt>{t("Wallet")}</dt>
          <dd>{money(asset.alipay_amount)}</dd>
        </div>
        <div>
          <dt>{t("In trades (escrow)")}</dt>
          <dd>{money(asset.frozen_amount)}</dd>
        </div>
      </dl>
      <Movements version={version} />
    </section>
  );
}
