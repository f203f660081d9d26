import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';

export interface TStockViolation {
  rule:
    | 'on_hand_negative'
    | 'reserved_out_of_range'
    | 'balance_not_ledger_sum'
    | 'ledger_running_total'
    | 'ledger_key_mismatch'
    | 'reserved_not_reservation_sum'
    | 'reservation_foreign';
  balanceId: string | null;
  detail: string;
}

/**
 * Check the stock engine's invariants over the whole database (or one seller): on_hand >= 0, 0 <= reserved <= on_hand,
 * on_hand = sum of the balance's ledger rows, every ledger row's on_hand_after = the running total up to it (so no
 * update was lost between two writers), ledger rows carry their balance's key, reserved = sum of the documents'
 * reservations. Returns the violations (empty when all hold). Read-only; `npm run check:stock` calls it.
 */
export async function checkStockInvariants(
  db: Executor,
  opts: { customerId?: string; limit?: number } = {},
): Promise<TStockViolation[]> {
  const limit = opts.limit ?? 100;
  const scope = (alias: string): SQL =>
    opts.customerId ? sql`and ${sql.raw(alias)}.customer_id = ${opts.customerId}` : sql``;
  const out: TStockViolation[] = [];
  const add = (rule: TStockViolation['rule'], rows: Array<{ balance_id: string | null; detail: string }>) => {
    for (const r of rows) out.push({ rule, balanceId: r.balance_id, detail: r.detail });
  };

  add(
    'on_hand_negative',
    await queryRows(
      db,
      sql`select b.id as balance_id, 'on_hand=' || b.on_hand as detail from stock_balances b
          where b.on_hand < 0 ${scope('b')} limit ${limit}`,
    ),
  );
  add(
    'reserved_out_of_range',
    await queryRows(
      db,
      sql`select b.id as balance_id, 'on_hand=' || b.on_hand || ' reserved=' || b.reserved as detail
          from stock_balances b where (b.reserved < 0 or b.reserved > b.on_hand) ${scope('b')} limit ${limit}`,
    ),
  );
  add(
    'balance_not_ledger_sum',
    await queryRows(
      db,
      sql`select b.id as balance_id, 'on_hand=' || b.on_hand || ' ledger=' || coalesce(m.total, 0) as detail
          from stock_balances b
          left join (select balance_id, sum(quantity)::bigint as total from stock_movements group by balance_id) m
            on m.balance_id = b.id
          where b.on_hand <> coalesce(m.total, 0) ${scope('b')} limit ${limit}`,
    ),
  );
  add(
    'ledger_running_total',
    await queryRows(
      db,
      sql`select x.balance_id, 'movement ' || x.id || ': on_hand_after=' || x.on_hand_after || ' running=' || x.running
            as detail
          from (select m.id, m.balance_id, m.on_hand_after, m.customer_id,
                  sum(m.quantity) over (partition by m.balance_id order by m.id) as running
                from stock_movements m) x
          where x.on_hand_after <> x.running ${scope('x')} limit ${limit}`,
    ),
  );
  add(
    'ledger_key_mismatch',
    await queryRows(
      db,
      sql`select m.balance_id, 'movement ' || m.id as detail from stock_movements m
          join stock_balances b on b.id = m.balance_id
          where (m.customer_id <> b.customer_id or m.product_id <> b.product_id or m.location_id <> b.location_id
                 or m.warehouse_id <> b.warehouse_id or m.expiry_date is distinct from b.expiry_date) ${scope('m')}
          limit ${limit}`,
    ),
  );
  add(
    'reserved_not_reservation_sum',
    await queryRows(
      db,
      sql`select b.id as balance_id, 'reserved=' || b.reserved || ' reservations=' || coalesce(r.total, 0) as detail
          from stock_balances b
          left join (select balance_id, sum(quantity)::bigint as total from stock_reservations group by balance_id) r
            on r.balance_id = b.id
          where b.reserved <> coalesce(r.total, 0) ${scope('b')} limit ${limit}`,
    ),
  );
  add(
    'reservation_foreign',
    await queryRows(
      db,
      sql`select r.balance_id, 'reservation ' || r.id as detail from stock_reservations r
          join stock_balances b on b.id = r.balance_id
          where r.customer_id <> b.customer_id ${scope('r')} limit ${limit}`,
    ),
  );
  return out;
}
