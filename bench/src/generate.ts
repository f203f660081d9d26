import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../apps/server/src/db/client';
import { hashPassword } from '../../apps/server/src/platform/crypto';

export interface TScale {
  sellers: number;
  productsPerSeller: number;
  locationsPerSeller: number;
  historicalOrdersPerSeller: number;
  /** Ledger rows per balance; each product has two balances. */
  movementsPerBalance: number;
}

export const SCALES: Record<'default' | 'quick', TScale> = {
  // 2 sellers, 20,000 products, 200,000 orders, 2,000,000 ledger rows (20,000 × 2 balances × 50).
  default: {
    sellers: 2,
    productsPerSeller: 10_000,
    locationsPerSeller: 2_000,
    historicalOrdersPerSeller: 100_000,
    movementsPerBalance: 50,
  },
  quick: {
    sellers: 2,
    productsPerSeller: 1_000,
    locationsPerSeller: 200,
    historicalOrdersPerSeller: 5_000,
    movementsPerBalance: 10,
  },
};

export interface TSellerData {
  customerId: string;
  userId: string;
  email: string;
  password: string;
  warehouseId: string;
}

export const BENCH_PASSWORD = 'bench-password-1';

/**
 * Fill an empty, migrated database with a realistic data set, in set-based SQL (seconds, not hours). The ledger is
 * consistent: every balance's rows start with +100 and then alternate −5/+5, so each row's on_hand_after is the
 * running total and the balance (95 or 100) equals the sum, as `npm run check:stock` verifies.
 */
export async function generateData(db: Db, scale: TScale, log: (msg: string) => void): Promise<TSellerData[]> {
  const hash = await hashPassword(BENCH_PASSWORD);
  const sellers: TSellerData[] = [];
  for (let s = 1; s <= scale.sellers; s++) {
    const t0 = Date.now();
    const email = `bench-seller-${s}@wms.local`;
    const [c] = await queryRows<{ id: string }>(
      db,
      sql`insert into customers (name) values (${`Bench seller ${s}`}) returning id`,
    );
    const customerId = c!.id;
    const [u] = await queryRows<{ id: string }>(
      db,
      sql`insert into users (customer_id, email, name, role, password_hash)
        values (${customerId}, ${email}, 'Bench user', 'CUSTOMER', ${hash}) returning id`,
    );
    const [w] = await queryRows<{ id: string }>(
      db,
      sql`insert into warehouses (customer_id, code, name) values (${customerId}, 'WH1', 'Main') returning id`,
    );
    const warehouseId = w!.id;
    await db.execute(sql`
      insert into storage_locations (customer_id, warehouse_id, code, name, kind, pick_sequence)
      select ${customerId}, ${warehouseId}, 'L' || lpad(i::text, 5, '0'), 'Location ' || i, 'sellable', i
      from generate_series(1, ${scale.locationsPerSeller}) i`);
    await db.execute(sql`
      insert into storage_locations (customer_id, warehouse_id, code, name, kind)
      values (${customerId}, ${warehouseId}, 'DEFECT', 'Defective', 'defective'),
             (${customerId}, ${warehouseId}, 'EXPIRED', 'Expired', 'expired')`);
    await db.execute(sql`
      insert into products (customer_id, number, name, barcode, shelf_life_months, sellable_rule_months, weight, selling_price)
      select ${customerId}, 'SKU' || lpad(i::text, 6, '0'), 'Product ' || i, lpad((4710000000000 + i)::text, 13, '0'),
             case when i % 10 = 0 then 12 end, case when i % 10 = 0 then 2 end, (i % 900) + 100, ((i % 50) * 10 + 99)::numeric
      from generate_series(1, ${scale.productsPerSeller}) i`);
    // Two piles per product: locations chosen round-robin; shelf-life products get a lot expiry.
    await db.execute(sql`
      with p as (select id, shelf_life_months, row_number() over (order by number) as n from products where customer_id = ${customerId}),
           l as (select id, row_number() over (order by code) as n from storage_locations
                 where customer_id = ${customerId} and kind = 'sellable')
      insert into stock_balances (customer_id, product_id, warehouse_id, location_id, expiry_date, on_hand, reserved, received_at)
      select ${customerId}, p.id, ${warehouseId}, l.id,
             case when p.shelf_life_months is not null then (current_date + (180 + k * 60)) end,
             case when ${scale.movementsPerBalance} % 2 = 0 then 95 else 100 end, 0, now() - interval '400 days'
      from p cross join generate_series(0, 1) k
      join l on l.n = ((p.n * 2 + k) % ${scale.locationsPerSeller}) + 1`);
    await db.execute(sql`
      insert into stock_movements (customer_id, balance_id, product_id, warehouse_id, location_id, expiry_date, quantity,
                                   on_hand_after, reason, document_type, document_number, created_at)
      select b.customer_id, b.id, b.product_id, b.warehouse_id, b.location_id, b.expiry_date,
             case when i = 1 then 100 when i % 2 = 0 then -5 else 5 end,
             case when i = 1 then 100 when i % 2 = 0 then 95 else 100 end,
             case when i = 1 then 'inbound' when i % 2 = 0 then 'outbound' else 'return' end,
             case when i = 1 then 'inbound' when i % 2 = 0 then 'outbound' else 'return' end,
             'GEN' || i,
             now() - ((${scale.movementsPerBalance} - i) * interval '7 days')
      from stock_balances b cross join generate_series(1, ${scale.movementsPerBalance}) i
      where b.customer_id = ${customerId}
      order by b.id, i`);
    // Historical orders (closed), one to three lines each.
    await db.execute(sql`
      insert into outbound_orders (customer_id, number, platform_order_number, recipient_name, recipient_phone, recipient_postcode,
                                   recipient_address, warehouse_id, status, channel, total_amount, shipping_date, created_at, closed_at)
      select ${customerId}, 'OUT' || lpad(i::text, 8, '0'), 'SP' || lpad(i::text, 10, '0'), '收件人 ' || i, '0912345678', '100',
             '臺北市中正區重慶南路一段 ' || (i % 300) || ' 號', ${warehouseId},
             'closed', case when i % 3 = 0 then 'ecommerce' else 'manual' end, (i % 5000 + 100)::numeric,
             (current_date - (i % 365)), now() - ((i % 365) * interval '1 day'), now() - ((i % 365) * interval '1 day')
      from generate_series(1, ${scale.historicalOrdersPerSeller}) i`);
    await db.execute(sql`
      with o as (select id, row_number() over (order by number) as n from outbound_orders where customer_id = ${customerId}),
           p as (select id, row_number() over (order by number) as n from products where customer_id = ${customerId})
      insert into outbound_order_lines (customer_id, order_id, line_no, product_id, quantity)
      select ${customerId}, o.id, k, p.id, 1 + (o.n + k) % 3
      from o cross join generate_series(1, 3) k
      join p on p.n = ((o.n * 7 + k * 13) % ${scale.productsPerSeller}) + 1
      where k <= 1 + o.n % 3`);
    sellers.push({ customerId, userId: u!.id, email, password: BENCH_PASSWORD, warehouseId });
    log(`seller ${s}: generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Autovacuum does this to a live database; without it, counts cannot use index-only scans (visibility map unset).
  await db.execute(sql`vacuum analyze`);
  return sellers;
}

/** Row counts of the main tables, for the report. */
export async function countRows(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of [
    'products',
    'storage_locations',
    'stock_balances',
    'stock_movements',
    'outbound_orders',
    'outbound_order_lines',
  ]) {
    const r = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(t)}`);
    out[t] = Number(r[0]?.n ?? 0);
  }
  return out;
}
