import type { Selectable } from "kysely";
import type { SandboxAssetsTable } from "../../storage/schema.ts";
import type { PlatformAsset } from "../../domain/platform/game-platform.ts";

export type SandboxAssetRow = Selectable<SandboxAssetsTable>;

/** Goods types that the game can inspect, and so carry an inspect link. */
export const INSPECTABLE_TYPES = new Set(["weapon", "knife", "gloves", "agent", "charm"]);

export function toPlatformAsset(row: SandboxAssetRow, goodsType: string): PlatformAsset {
  return {
    assetid: String(row.assetid),
    classid: row.classid,
    instanceid: row.instanceid,
    goodsId: row.goods_id,
    paintwear: row.paintwear,
    paintseed: row.paintseed,
    paintindex: row.paintindex,
    stickers: row.stickers,
    keychains: row.keychains,
    nametag: row.nametag,
    tradableAfter: row.tradable_after,
    acquiredAt: row.acquired_at,
    inspectUrl: INSPECTABLE_TYPES.has(goodsType)
      ? `steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S${row.platformid}A${row.assetid}D${inspectKey(row)}`
      : null,
  };
}

/** The `D` part of an inspect link: stable for an item's attributes. */
function inspectKey(row: SandboxAssetRow): string {
  const seed = `${row.classid}:${row.instanceid}:${row.paintseed ?? 0}`;
  let hash = 0n;
  for (const char of seed) hash = (hash * 131n + BigInt(char.charCodeAt(0))) % 18_446_744_073_709_551_557n;
  return hash.toString();
}
