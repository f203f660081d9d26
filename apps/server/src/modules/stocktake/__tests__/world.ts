import { randomUUID } from 'node:crypto';
import { stocktake_lines, stocktake_locations, stocktake_products, stocktakes } from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';
import { stockFactory } from '../../stock/__tests__/factories';

/** Rows of every stocktake table for the tenant isolation sweep: an open product-scoped sheet with a counted line. */
export const stocktakeWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const f = stockFactory(db, s.customerId);
  const wh = await f.warehouse();
  const loc = await f.location(wh.id);
  const product = await f.product();
  const [sheet] = await db
    .insert(stocktakes)
    .values({
      customer_id: s.customerId,
      number: `ST-W-${randomUUID().slice(0, 6)}`,
      warehouse_id: wh.id,
      name: 'World stocktake',
      year: 2026,
      type: 'first',
      scope: 'product',
    })
    .returning();
  await db
    .insert(stocktake_locations)
    .values({ customer_id: s.customerId, stocktake_id: sheet!.id, location_id: loc.id });
  await db
    .insert(stocktake_products)
    .values({ customer_id: s.customerId, stocktake_id: sheet!.id, product_id: product.id });
  await db.insert(stocktake_lines).values({
    customer_id: s.customerId,
    stocktake_id: sheet!.id,
    location_id: loc.id,
    product_id: product.id,
    count_1: 3,
    book_1: 0,
  });
};
