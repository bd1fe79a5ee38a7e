import type { AssetInfo } from "@skinmarket/contract";
import type { PlatformAsset } from "../platform/game-platform.ts";

/** The reference's asset_info record for a platform item (`contextid` 2: CS2 items). */
export function toAssetInfo(asset: PlatformAsset, iconUrl: string, goodsType: string): AssetInfo {
  return {
    assetid: asset.assetid,
    classid: asset.classid,
    contextid: 2,
    goods_id: asset.goodsId,
    id: asset.assetid,
    instanceid: asset.instanceid,
    paintwear: asset.paintwear ?? "",
    info: {
      fraudwarnings: asset.nametag,
      paintindex: asset.paintindex,
      paintseed: asset.paintseed,
      stickers: asset.stickers,
      tournament_tags: [],
      inspect_info: asset.inspectUrl
        ? {
            game_release_date: "",
            inspect_url: asset.inspectUrl,
            is_charm: goodsType === "charm",
            is_customplayer: goodsType === "agent",
          }
        : {},
      keychains: asset.keychains,
      icon_url: iconUrl,
      original_icon_url: iconUrl,
    },
  };
}
