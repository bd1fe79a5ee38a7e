import type { CatalogGoods, CatalogTag, GoodsType } from "../src/domain/catalog/catalog-file.ts";
import type { CatalogBuild, CatalogMappings, CatalogSource } from "./catalog/catalog-types.ts";
import { expandGroup, uniqueDrafts } from "./catalog/expand-goods.ts";
import type { TagDraft } from "./catalog/goods-tags.ts";
import { groupByName } from "./catalog/group-items.ts";
import { IdMapping } from "./catalog/id-mapping.ts";
import { serializeCatalog } from "./catalog/serialize-catalog.ts";
import { SourceIndex } from "./catalog/source-index.ts";

export type {
  CatalogBuild,
  CatalogBuildReport,
  CatalogMappings,
  CatalogSource,
  DuplicateName,
} from "./catalog/catalog-types.ts";

/**
 * The pure half of `npm run catalog:build`: cs2-lib items plus the committed id mappings in, the
 * catalog file content and the grown mappings out. No I/O, so tests can run it on any input.
 * Rules (docs/design/domain-model.md#catalog-goods, packages/server/catalog/README.md):
 * - one goods per Steam market hash name; skins expand per exterior their wear range reaches and
 *   per quality that exists; items that cannot be on the Steam market are left out;
 * - goods and tag ids come from append-only TSV mappings: a known name keeps its id forever, a
 *   new one gets the next id, a name cs2-lib stopped yielding keeps its line.
 *
 * The steps live in catalog/: group-items.ts classifies and groups cs2-lib items, expand-goods.ts
 * turns each group into goods per quality and exterior (named by goods-names.ts, tagged by
 * goods-tags.ts with Steam's vocabulary from steam-names.ts), id-mapping.ts numbers them and
 * serialize-catalog.ts writes the file.
 */

export function buildCatalog(source: CatalogSource, mappings: CatalogMappings): CatalogBuild {
  const context = new SourceIndex(source);
  const groups = groupByName(source.items, context);
  const drafts = uniqueDrafts(
    groups.flatMap((group) => expandGroup(group, context)),
    context,
  );
  const goodsIds = new IdMapping(mappings.goodsIdsTsv, 1, "goods-ids.tsv");
  const tagIds = new IdMapping(mappings.tagIdsTsv, 2, "tag-ids.tsv");
  const tags = new Map<number, CatalogTag>();
  const toTag = (draft: TagDraft): CatalogTag => {
    const id = tagIds.idOf([draft.category, draft.internalName]);
    const known = tags.get(id);
    if (known === undefined) {
      const tag = { id, ...draft };
      tags.set(id, tag);
      return tag;
    }
    if (known.localizedName !== draft.localizedName) {
      context.warn(
        `tag ${draft.category}/${draft.internalName} is named ${known.localizedName} and ${draft.localizedName}`,
      );
    }
    return known;
  };
  const goods: CatalogGoods[] = drafts.map(({ tags: tagDrafts, icon, ...draft }) => ({
    goodsId: goodsIds.idOf([draft.marketHashName]),
    ...draft,
    tags: tagDrafts.map(toTag),
    iconUrl: source.iconBaseUrl + icon,
  }));
  goods.sort((a, b) => a.goodsId - b.goodsId);
  const presentNames = new Set(goods.map((item) => item.marketHashName));
  return {
    goods,
    goodsIdsTsv: goodsIds.toTsv(),
    tagIdsTsv: tagIds.toTsv(),
    catalogJson: serializeCatalog(source, goods, tags),
    report: {
      goodsByType: countByType(goods),
      newGoods: goodsIds.added,
      newTags: tagIds.added,
      absentGoods: goodsIds.knownKeys().filter((name) => !presentNames.has(name)).length,
      duplicates: context.duplicates,
      skipped: context.skipped,
      warnings: [...context.warnings],
    },
  };
}

function countByType(goods: CatalogGoods[]): Record<GoodsType, number> {
  const counts: Record<GoodsType, number> = {
    weapon: 0,
    knife: 0,
    gloves: 0,
    sticker: 0,
    sticker_slab: 0,
    graffiti: 0,
    patch: 0,
    agent: 0,
    music_kit: 0,
    container: 0,
    key: 0,
    tool: 0,
    collectible: 0,
    charm: 0,
  };
  for (const item of goods) counts[item.type]++;
  return counts;
}
