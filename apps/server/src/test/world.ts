import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  api_settings,
  areas,
  ecommerce_platforms,
  integration_attempts,
  jobs,
  label_sheets,
  logistics_providers,
  order_events,
  outbound_orders,
  outbox_messages,
  packaging_materials,
  product_categories,
  product_components,
  products,
  shelves,
  storage_locations,
  store_members,
  store_orders,
  stores,
  warehouses,
} from '../db/schema';
import { billingWorld } from '../modules/billing/__tests__/world';
import { carriersWorld } from '../modules/carriers/__tests__/world';
import { outboundWorld } from '../modules/outbound/__tests__/world';
import { retentionWorld } from '../modules/retention/__tests__/world';
import { returnsWorld } from '../modules/returns/__tests__/world';
import { shipsWorld } from '../modules/ships/__tests__/world';
import { shopeeWorld } from '../modules/shopee/__tests__/world';
import { stockWorld } from '../modules/stock/__tests__/world';
import { stocktakeWorld } from '../modules/stocktake/__tests__/world';
import { supportWorld } from '../modules/support/__tests__/world';
import { usageWorld } from '../modules/usage/__tests__/world';
import { fixturePasswordHash, type TTestContext } from './harness';

export interface TSeller {
  customerId: string;
  userId: string;
  token: string;
}

/**
 * Builds one row (at least) in a group of seller-owned tables for a seller. The isolation sweep runs every builder for
 * seller A, then checks that every table with a `customer_id` column holds a row of A: a module that adds a table
 * adds a builder here (one line in WORLD_BUILDERS), or the sweep fails and says which table is missing.
 */
export type TWorldBuilder = (ctx: TTestContext, seller: TSeller) => Promise<void>;

const accountWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [store] = await db
    .insert(stores)
    .values({ customer_id: s.customerId, name: 'A store', short_url: `a-${randomUUID().slice(0, 8)}` })
    .returning();
  await db.insert(store_members).values({
    customer_id: s.customerId,
    store_id: store!.id,
    email: `m-${randomUUID().slice(0, 6)}@a.tw`,
    name: 'A member',
    password_hash: await fixturePasswordHash('member-pass'),
  });
  await db.insert(jobs).values({ customer_id: s.customerId, kind: 'world.unhandled' });
  // Platform spine: an outbox message and the attempt log of its call.
  const [message] = await db
    .insert(outbox_messages)
    .values({ customer_id: s.customerId, topic: 'world.topic', payload: {}, idempotency_key: randomUUID() })
    .returning();
  await db.insert(integration_attempts).values({
    customer_id: s.customerId,
    provider: 'webhook',
    operation: 'world',
    reference: message!.id,
    method: 'POST',
    url: 'https://partner.example/callback',
  });
  // Partner API: a setting (disabled, no key) and a recorded order event.
  await db.insert(api_settings).values({ customer_id: s.customerId, name: 'A ERP', kind: 'partner' });
  await db.insert(order_events).values({
    customer_id: s.customerId,
    order_id: randomUUID(),
    type: 'order.created',
    order_number: 'OUT-A',
    status: 'pending_export',
    dispatched_at: new Date(),
  });
};

const structureWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [wh] = await db
    .insert(warehouses)
    .values({ customer_id: s.customerId, code: 'AWH', name: 'A warehouse' })
    .returning();
  const [area] = await db
    .insert(areas)
    .values({ customer_id: s.customerId, warehouse_id: wh!.id, code: 'AA', name: 'A area' })
    .returning();
  const [shelf] = await db
    .insert(shelves)
    .values({
      customer_id: s.customerId,
      warehouse_id: wh!.id,
      area_id: area!.id,
      code: 'AS',
      name: 'A shelf',
      layers: 2,
    })
    .returning();
  await db.insert(storage_locations).values({
    customer_id: s.customerId,
    warehouse_id: wh!.id,
    area_id: area!.id,
    shelf_id: shelf!.id,
    code: 'AS-1-1',
  });
  const [cat] = await db
    .insert(product_categories)
    .values({ customer_id: s.customerId, code: 'A01', name: 'A cat' })
    .returning();
  const [single] = await db
    .insert(products)
    .values({ customer_id: s.customerId, number: 'A-SKU-1', name: 'A product', category_id: cat!.id })
    .returning();
  const [kit] = await db
    .insert(products)
    .values({ customer_id: s.customerId, number: 'A-KIT-1', name: 'A kit', type: 'combination' })
    .returning();
  await db
    .insert(product_components)
    .values({ customer_id: s.customerId, product_id: kit!.id, component_id: single!.id, quantity: 2 });
};

const basicsWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  await db.insert(packaging_materials).values({ customer_id: s.customerId, code: 'A-BOX', name: 'A box', quantity: 5 });
  await db.insert(logistics_providers).values({ customer_id: s.customerId, code: 'A-TCAT', name: 'A carrier' });
  await db.insert(ecommerce_platforms).values({ customer_id: s.customerId, code: 'A-SHOP', name: 'A shop' });
  await db.insert(label_sheets).values({
    customer_id: s.customerId,
    code: 'A-SHEET',
    name: 'A sheet',
    cells: 4,
    columns: 2,
    rows: 2,
    label_width_mm: 90,
    label_height_mm: 140,
    margin_left_mm: 10,
    margin_top_mm: 10,
    pitch_x_mm: 95,
    pitch_y_mm: 145,
  });
};

/** Online store: an order of the seller placed through its store (after the outbound world made orders). */
const storeWorld: TWorldBuilder = async (ctx, s) => {
  const db = ctx.deps.database.db;
  const [store] = await db.select().from(stores).where(eq(stores.customer_id, s.customerId));
  const [member] = await db.select().from(store_members).where(eq(store_members.customer_id, s.customerId));
  const [order] = await db.select().from(outbound_orders).where(eq(outbound_orders.customer_id, s.customerId)).limit(1);
  await db
    .insert(store_orders)
    .values({ customer_id: s.customerId, store_id: store!.id, member_id: member!.id, order_id: order!.id });
};

export const WORLD_BUILDERS: TWorldBuilder[] = [
  accountWorld,
  structureWorld,
  basicsWorld,
  stockWorld,
  outboundWorld,
  returnsWorld,
  stocktakeWorld,
  storeWorld,
  supportWorld,
  shopeeWorld,
  carriersWorld,
  billingWorld,
  usageWorld,
  retentionWorld,
  shipsWorld,
];
