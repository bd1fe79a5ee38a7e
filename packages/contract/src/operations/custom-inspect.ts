import { Type } from "typebox";
import { StrictObject, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

/**
 * One finish of a weapon as the real website's inspect view lists it (docs/design/website-goods-routes.md#the-inspect-views-finishes):
 * tools key it by `weapon_name_desc | skin_name` and keep `texture_url`.
 */
export const InspectSkin = StrictObject({
  paintkit_id: Type.Integer({
    description: "the finish's paint index (Phase 1's for Doppler-like finishes)",
  }),
  weapon_name: Type.String({ description: "the weapon's class name, as asked" }),
  weapon_name_desc: Type.String({ description: "the weapon's Chinese name" }),
  skin_name: Type.String({ description: "the finish's Chinese name" }),
  market_hash_name: Type.String({ description: "the finish's English name without quality and exterior" }),
  goods_id: Type.Integer({ description: "a goods of the finish (plain quality, best exterior)" }),
  icon_url: Type.String(),
  texture_url: Type.Literal("", { description: "empty: the marketplace has no 3D textures" }),
});

/** GET /api/market/custom_inspect/get_skins: the finishes of one weapon (website route). */
export const getInspectSkins = defineOperation({
  id: "getInspectSkins",
  method: "GET",
  path: "/api/market/custom_inspect/get_skins",
  access: "public",
  envelope: "internal",
  summary: "The finishes (paint kits) of one weapon, by its class name, for the inspect view",
  tags: ["Website"],
  querystring: Type.Object({
    weapon_name: Text({
      minLength: 1,
      maxLength: 64,
      description: "the weapon's class name: weapon_ak47, weapon_knife_karambit, weapon_sporty_gloves ...",
      examples: ["weapon_ak47"],
    }),
    _: Type.Optional(Text({ maxLength: 32, description: "a cache-buster, ignored" })),
  }),
  response: InternalOk({
    weapon_name: Type.String(),
    skins: Type.Array(InspectSkin),
  }),
});
