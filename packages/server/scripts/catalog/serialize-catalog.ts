import {
  CATALOG_FORMAT,
  CATALOG_GOODS_COLUMNS,
  CATALOG_TAG_COLUMNS,
  type CatalogGoods,
  type CatalogTag,
} from "../../src/domain/catalog/catalog-file.ts";
import type { CatalogSource } from "./catalog-types.ts";

/**
 * The layout `readCatalogFile` expects (src/domain/catalog/catalog-file.ts): tags once, goods as
 * rows that point at tag ids, icons relative to one base URL. The freshness test reads the
 * written file back and compares it with the build, so the two sides cannot drift apart.
 */
export function serializeCatalog(
  source: CatalogSource,
  goods: CatalogGoods[],
  tags: Map<number, CatalogTag>,
): string {
  const tagRows = [...tags.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, tag]) => JSON.stringify([tag.id, tag.category, tag.internalName, tag.localizedName]));
  const goodsRows = goods.map((item) =>
    JSON.stringify([
      item.goodsId,
      item.marketHashName,
      item.name,
      item.shortName,
      item.type,
      item.quality,
      item.exterior,
      item.tags.map((tag) => tag.id),
      item.paintwearMin,
      item.paintwearMax,
      item.paintIndex,
      item.iconUrl.slice(source.iconBaseUrl.length),
      item.isStandard,
      item.sourceId,
      item.rarityColor,
      item.gameIndex,
    ]),
  );
  const header = JSON.stringify({
    format: CATALOG_FORMAT,
    source: source.name,
    iconBaseUrl: source.iconBaseUrl,
  });
  return (
    `${header.slice(0, -1)},\n"tags":{"columns":${JSON.stringify(CATALOG_TAG_COLUMNS)},"rows":[\n${tagRows.join(",\n")}\n]},\n` +
    `"goods":{"columns":${JSON.stringify(CATALOG_GOODS_COLUMNS)},"rows":[\n${goodsRows.join(",\n")}\n]}}\n`
  );
}
