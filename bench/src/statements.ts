import type { TRouteClient } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import { queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { snapshotDay } from '../../apps/server/src/modules/usage/usage.jobs';
import { taipeiMidnight, taipeiToday } from '../../apps/server/src/platform/calendar';
import { hashPassword } from '../../apps/server/src/platform/crypto';
import { httpClient } from './client';
import type { TSellerData } from './generate';
import { figure } from './registry';

/**
 * Usage statements at volume (issue #35 "Done when": a statement of a seller with 200,000 orders and 20,000 products
 * in a month is issued in ≤ 5 s and its first drill-down page opens in ≤ 300 ms). On the first seller of the data set,
 * the last ended month's charge events are written set-based — pick & pack for 200,000 orders (per order, and per
 * extra unit for three in four), receiving for 4,000 receipts, returns for 2,000, and 31 nightly storage snapshots of
 * 20,000 products (what the snapshot job records: one row and its two charges a day) — then, through the typed route
 * client over HTTP as staff: the statement issued (then voided and issued again, `runs` times: p50 and max), and its
 * first drill-down pages (a line's events, all events; as staff and as the seller). Also the nightly snapshot of one
 * warehouse-day at the data set's size (in process). Figures only; nothing is asserted on times.
 */

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

async function ok<T extends { statusCode: number; body: string }>(what: string, res: Promise<T>): Promise<T> {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`statements: ${what} ${r.statusCode} ${r.body.slice(0, 200)}`);
  return r;
}

const RATES = {
  receiving_receipt: '30',
  receiving_unit: '1.5',
  pick_order: '15',
  pick_extra_unit: '3.25',
  storage_location_day: '0.8',
  storage_cbm_day: '2.5',
  return_receipt: '20',
  return_unit: '2.5',
};

/** The month's charges of one seller, set-based, priced by `cardId` (amount = quantity × rate, as the module prices). */
async function writeCharges(
  database: TDatabase,
  seller: TSellerData,
  cardId: string,
  month: string,
  n: { orders: number; products: number; receipts: number; returns: number },
) {
  const db = database.db;
  const c = seller.customerId;
  const first = taipeiMidnight(`${month}-01`).toISOString();
  const days = Number(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate());
  const tag = Date.now().toString(36).toUpperCase();
  // Document i of a series: day 1 + i mod days, 08:00–20:00 Taipei.
  const charge = (
    kind: keyof typeof RATES,
    source: string,
    prefix: string,
    count: number,
    quantity: string,
    where = 'true',
  ) => sql`
    insert into usage_charges (customer_id, kind, source_type, source_id, document_number, occurred_at, day, quantity,
      unit_price, amount, rate_card_id)
    select ${c}, ${kind}, ${source}, s.id, s.number, s.at, (s.at at time zone 'Asia/Taipei')::date, s.q,
      ${RATES[kind]}::numeric, s.q * ${RATES[kind]}::numeric, ${cardId}
    from (select i, overlay(overlay(md5(${`${tag}${prefix}`} || i) placing '4' from 13) placing '8' from 17)::uuid as id, ${`${prefix}${tag}-`} || lpad(i::text, 7, '0') as number,
            ${first}::timestamptz + ((i % ${days}) * interval '1 day') + interval '8 hours'
              + ((i * 7919) % 43200) * interval '1 second' as at,
            (${sql.raw(quantity)})::int as q
          from generate_series(1, ${count}) i) s
    where ${sql.raw(where)}`;
  // Orders: 1 + i mod 4 units (an extra-unit event for three in four).
  await db.execute(charge('pick_order', 'outbound_order', 'BO', n.orders, '1'));
  await db.execute(charge('pick_extra_unit', 'outbound_order', 'BO', n.orders, 'i % 4', 'i % 4 > 0'));
  await db.execute(charge('receiving_receipt', 'inbound_receipt', 'BI', n.receipts, '1'));
  await db.execute(charge('receiving_unit', 'inbound_receipt', 'BI', n.receipts, '50 + i % 200'));
  await db.execute(charge('return_receipt', 'return_receipt', 'BR', n.returns, '1'));
  await db.execute(charge('return_unit', 'return_receipt', 'BR', n.returns, '1 + i % 3'));
  // Storage: one snapshot a night of the seller's products (on 2,000 locations, 12 litres a product, 90 % of the units
  // past their free days), and its two charges, as the nightly job records them.
  await db.execute(sql`
    with d as (select day::date as day from generate_series(${`${month}-01`}::date,
                 (${`${month}-01`}::date + interval '1 month' - interval '1 day'), interval '1 day') day),
         s as (
      insert into usage_storage_snapshots (warehouse_id, customer_id, day, locations, units, litres, charged_locations,
        charged_units, charged_litres, free_days)
      select ${seller.warehouseId}, ${c}, d.day, 2000, ${n.products} * 100, ${n.products} * 12, 2000, ${n.products} * 90,
        ${n.products} * 11, 5
      from d returning id, day, charged_locations, charged_litres)
    insert into usage_charges (customer_id, kind, source_type, source_id, document_number, occurred_at, day, quantity,
      unit_price, amount, rate_card_id)
    select ${c}, k.kind, 'storage_snapshot', s.id, 'SNAP-' || to_char(s.day, 'YYYYMMDD'),
      (s.day + 1)::timestamp at time zone 'Asia/Taipei' - interval '1 millisecond', s.day, k.q, k.rate::numeric,
      k.q * k.rate::numeric / k.scale, ${cardId}
    from s cross join lateral (values
      ('storage_location_day', s.charged_locations, ${RATES.storage_location_day}, 1),
      ('storage_cbm_day', s.charged_litres, ${RATES.storage_cbm_day}, 1000)) k(kind, q, rate, scale)`);
  // As autovacuum would: the visibility map lets the drill-down count from the index.
  await db.execute(sql`vacuum analyze usage_charges`);
  const [counted] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from usage_charges where customer_id = ${c}`,
  );
  return Number(counted?.n ?? 0);
}

/** A staff account for the CRM's calls (the data set has sellers only). */
async function staffToken(database: TDatabase, api: TRouteClient): Promise<string> {
  const email = `bench-staff-${Date.now().toString(36)}@wms.local`;
  const password = 'bench-staff-password-1';
  await database.db.execute(sql`insert into users (customer_id, email, name, role, password_hash)
    values (null, ${email}, 'Bench staff', 'EMPLOYEE', ${await hashPassword(password)})`);
  const login = (await api.authRoutes.login({ body: { email, password } })).json();
  if (login.status !== 'login') throw new Error('statements: staff login failed');
  return login.access;
}

export async function statementsBench(ctx: {
  database: TDatabase;
  url: string;
  sellers: TSellerData[];
  quick: boolean;
}): Promise<void> {
  const n = ctx.quick
    ? { orders: 20_000, products: 2_000, receipts: 400, returns: 200 }
    : { orders: 200_000, products: 20_000, receipts: 4_000, returns: 2_000 };
  const runs = ctx.quick ? 3 : 5;
  const seller = ctx.sellers[0]!;
  const api = httpClient(ctx.url);
  const staff = await staffToken(ctx.database, api);
  const login = (await api.authRoutes.login({ body: { email: seller.email, password: seller.password } })).json();
  if (login.status !== 'login') throw new Error('statements: seller login failed');
  const token = login.access;

  // The last ended month (Asia/Taipei): the one a statement can be issued for.
  const [y, m] = taipeiToday().split('-').map(Number) as [number, number];
  const month = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
  const card = (
    await ok(
      'rate card',
      api.usageRoutes.crmCreateRateCard({
        body: { customer_id: seller.customerId, valid_from: `${month}-01`, rates: RATES, storage_free_days: 5 },
        token: staff,
      }),
    )
  ).json();
  const t0 = performance.now();
  const events = await writeCharges(ctx.database, seller, card.id, month, n);
  figure(
    'statements',
    `write ${events.toLocaleString('en')} charge events of ${n.orders.toLocaleString('en')} orders (set-based)`,
    ((performance.now() - t0) / 1000).toFixed(1),
    's',
  );

  const issues: number[] = [];
  const voids: number[] = [];
  let statement = '';
  let total = '';
  for (let i = 0; i < runs; i++) {
    if (statement) {
      const [, ms] = await timed(() =>
        ok(
          'void',
          api.usageRoutes.crmVoidStatement({
            params: { id: statement },
            body: { reason: 'bench re-issue' },
            token: staff,
          }),
        ),
      );
      voids.push(ms);
    }
    const [res, ms] = await timed(() =>
      ok(
        'issue',
        api.usageRoutes.crmIssueStatement({
          body: { customer_id: seller.customerId, month },
          token: staff,
          timeoutMs: 120_000,
        }),
      ),
    );
    issues.push(ms);
    statement = res.json().id;
    total = res.json().total;
  }
  const note = `${events.toLocaleString('en')} events, total TWD ${total}; ${runs} issues (each after a void)`;
  figure('statements', 'issue a statement: p50', pct(issues, 50).toFixed(0), 'ms', `target ≤ 5000 ms; ${note}`);
  figure('statements', 'issue a statement: max', Math.max(...issues).toFixed(0), 'ms', 'target ≤ 5000 ms');
  figure('statements', 'void it (its events back to the month): p50', pct(voids, 50).toFixed(0), 'ms');

  // The first drill-down page: a line's events (the largest line), all events; as staff and as the seller.
  const pages: Array<[string, () => Promise<unknown>]> = [
    [
      'line pick_order, first page of 25 (staff)',
      () =>
        ok(
          'line',
          api.usageRoutes.crmStatementEvents({
            params: { id: statement },
            query: { kind: 'pick_order', page: 1, page_size: 25 },
            token: staff,
          }),
        ),
    ],
    [
      'line pick_order, first page of 25 (seller)',
      () =>
        ok(
          'line',
          api.usageRoutes.statementEvents({
            params: { id: statement },
            query: { kind: 'pick_order', page: 1, page_size: 25 },
            token,
          }),
        ),
    ],
    [
      'all events, first page of 25 (seller)',
      () =>
        ok(
          'events',
          api.usageRoutes.statementEvents({ params: { id: statement }, query: { page: 1, page_size: 25 }, token }),
        ),
    ],
  ];
  for (const [name, call] of pages) {
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const [, ms] = await timed(call);
      if (i > 0) times.push(ms); // the first warms the plan cache
    }
    figure(
      'statements',
      `drill-down: ${name}: p50`,
      pct(times, 50).toFixed(1),
      'ms',
      `target ≤ 300 ms; max ${Math.max(...times).toFixed(1)} ms over ${times.length} calls`,
    );
  }

  // The nightly snapshot of the seller's warehouse for yesterday, at the data set's size (the real job's code).
  const yesterday = taipeiToday(new Date(Date.now() - 86_400_000));
  const [products] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(distinct product_id)::int as n from stock_balances where warehouse_id = ${seller.warehouseId}`,
  );
  const [sellers, ms] = await timed(() => snapshotDay(ctx.database.db, seller.warehouseId, yesterday));
  figure(
    'statements',
    `nightly storage snapshot of one warehouse-day (${Number(products?.n ?? 0).toLocaleString('en')} products)`,
    ms.toFixed(0),
    'ms',
    sellers === null ? 'already recorded' : `${sellers} seller(s)`,
  );
}
