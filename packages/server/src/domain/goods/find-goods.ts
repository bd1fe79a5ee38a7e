import type { DomainContext } from "../context.ts";

/** One goods of the catalog with every column the goods pages show. */
export async function findGoods(ctx: DomainContext, goodsId: number) {
  return ctx.db.selectFrom("goods").selectAll().where("goods_id", "=", goodsId).executeTakeFirst();
}

export type GoodsRecord = NonNullable<Awaited<ReturnType<typeof findGoods>>>;

/** The website's failure for a goods id outside the catalog, naming the field. */
export function unknownGoodsMessage(goodsId: number): string {
  return `goods_id: no goods ${goodsId} in the catalog`;
}
