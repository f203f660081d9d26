import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/client';
import { product_components, products, shelves, storage_locations, warehouses } from '../../../db/schema';

/**
 * Test data for the stock and inbound suites, written straight through drizzle (the catalog and warehouse APIs are
 * another module's; these tests must not depend on them).
 */
export function stockFactory(db: Db, customerId: string) {
  const tag = () => randomUUID().slice(0, 8);
  return {
    async warehouse(code = `WH-${tag()}`) {
      const [w] = await db
        .insert(warehouses)
        .values({ customer_id: customerId, code, name: `Warehouse ${code}` })
        .returning();
      return w!;
    },
    async shelf(warehouseId: string, code = `S-${tag()}`) {
      const [s] = await db
        .insert(shelves)
        .values({ customer_id: customerId, warehouse_id: warehouseId, code, name: `Shelf ${code}`, layers: 3 })
        .returning();
      return s!;
    },
    async location(
      warehouseId: string,
      opts: {
        code?: string;
        kind?: 'sellable' | 'defective' | 'expired' | 'staging';
        pickSequence?: number;
        shelfId?: string;
        isActive?: boolean;
      } = {},
    ) {
      const [l] = await db
        .insert(storage_locations)
        .values({
          customer_id: customerId,
          warehouse_id: warehouseId,
          code: opts.code ?? `L-${tag()}`,
          kind: opts.kind ?? 'sellable',
          pick_sequence: opts.pickSequence ?? 0,
          shelf_id: opts.shelfId ?? null,
          is_active: opts.isActive ?? true,
        })
        .returning();
      return l!;
    },
    async product(
      opts: { number?: string; barcode?: string; shelfLifeMonths?: number; sellableRuleMonths?: number } = {},
    ) {
      const [p] = await db
        .insert(products)
        .values({
          customer_id: customerId,
          number: opts.number ?? `SKU-${tag()}`,
          name: `Product ${opts.number ?? tag()}`,
          barcode: opts.barcode ?? null,
          shelf_life_months: opts.shelfLifeMonths ?? null,
          sellable_rule_months: opts.sellableRuleMonths ?? null,
        })
        .returning();
      return p!;
    },
    async kit(components: Array<{ productId: string; quantity: number }>, number = `KIT-${tag()}`) {
      const [k] = await db
        .insert(products)
        .values({ customer_id: customerId, number, name: `Kit ${number}`, type: 'combination' })
        .returning();
      await db.insert(product_components).values(
        components.map((c) => ({
          customer_id: customerId,
          product_id: k!.id,
          component_id: c.productId,
          quantity: c.quantity,
        })),
      );
      return k!;
    },
  };
}
