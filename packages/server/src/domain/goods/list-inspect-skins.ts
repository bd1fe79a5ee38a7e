import { sql } from "kysely";
import type { GoodsTagRow } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";

export interface InspectSkin {
  paintkit_id: number;
  weapon_name: string;
  weapon_name_desc: string;
  skin_name: string;
  market_hash_name: string;
  goods_id: number;
  icon_url: string;
  texture_url: "";
}

/** Which goods of a finish names it: plain quality first (★ for knives and gloves), then the rest. */
const QUALITY_ORDER = sql`CASE quality WHEN 'normal' THEN 0 WHEN 'unusual' THEN 1 ELSE 2 END`;

/**
 * The finishes of one weapon (`custom_inspect/get_skins`, docs/design/website-goods-routes.md#the-inspect-views-finishes), from the
 * catalog: one entry per paint index among the goods tagged with that weapon (the weapon tag's
 * internal name is the game's class name, `weapon_ak47`), each named by its plain-quality goods
 * of the best exterior. A name no goods carries is refused naming `weapon_name`.
 */
export async function listInspectSkins(
  ctx: DomainContext,
  weaponName: string,
): Promise<Result<{ weapon_name: string; skins: InspectSkin[] }>> {
  const tagged = JSON.stringify([{ category: "weapon", internal_name: weaponName }]);
  const rows = await sql<{
    paint_index: number;
    goods_id: number;
    short_name: string;
    market_hash_name: string;
    icon_url: string;
    tags: GoodsTagRow[] | string;
  }>`
    SELECT DISTINCT ON (paint_index) paint_index, goods_id, short_name, market_hash_name, icon_url, tags
    FROM goods
    WHERE tags @> ${tagged}::jsonb AND paint_index IS NOT NULL
    ORDER BY paint_index, ${QUALITY_ORDER}, exterior NULLS FIRST, goods_id
  `.execute(ctx.db);
  if (rows.rows.length === 0)
    return invalidArgument(
      "weapon_name",
      `no weapon ${JSON.stringify(weaponName)} with finishes in the catalog; a class name such as weapon_ak47`,
    );
  const skins = rows.rows.map((row) => {
    const tags = typeof row.tags === "string" ? (JSON.parse(row.tags) as GoodsTagRow[]) : row.tags;
    const weapon = tags.find((tag) => tag.category === "weapon")!;
    return {
      paintkit_id: row.paint_index,
      weapon_name: weaponName,
      weapon_name_desc: weapon.localized_name,
      skin_name: afterBar(row.short_name),
      market_hash_name: stripped(row.market_hash_name),
      goods_id: row.goods_id,
      icon_url: row.icon_url,
      texture_url: "" as const,
    };
  });
  skins.sort((a, b) => a.market_hash_name.localeCompare(b.market_hash_name, "en"));
  return ok({ weapon_name: weaponName, skins });
}

/** `AK-47 | 红线` -> `红线`. */
function afterBar(name: string): string {
  const bar = name.indexOf(" | ");
  return bar === -1 ? name : name.slice(bar + 3);
}

/** `★ StatTrak™ Karambit | Doppler (Factory New)` -> `Karambit | Doppler`. */
function stripped(marketHashName: string): string {
  return marketHashName
    .replace(/^★ /, "")
    .replace(/^(StatTrak™|Souvenir) /, "")
    .replace(/ \((Factory New|Minimal Wear|Field-Tested|Well-Worn|Battle-Scarred)\)$/, "");
}
