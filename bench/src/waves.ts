import type { TRouteClient } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import { queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { httpClient } from './client';
import type { TSellerData } from './generate';
import { figure } from './registry';

/**
 * Ships today at volume (issue #36 "Done when"): 20,000 exported orders not yet in a batch (all due today or late, over
 * three carriers, each with its reserved units) are written set-based; then
 * - the floor board's call (/ships-today) with them open — target ≤ 100 ms;
 * - "release next wave" of 100 orders, one wave after the other, by a saved release channel and ad hoc — target ≤ 1 s
 *   per wave;
 * - 10 releases on one channel at once (no order in two batches, checked);
 * - the walk renumbering a location edit triggers (every edit renumbers the whole warehouse's walk).
 * Figures only; nothing is asserted on times. The orders stay (this step runs last).
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
  if (r.statusCode >= 300) throw new Error(`waves: ${what} ${r.statusCode} ${r.body.slice(0, 200)}`);
  return r;
}

/** `count` exported orders outside any batch at the seller's warehouse, ship-by in the last 10 hours, 1–3 units each. */
async function writeOpenOrders(database: TDatabase, seller: TSellerData, count: number, carriers: string[]) {
  const db = database.db;
  const c = seller.customerId;
  const tag = Date.now().toString(36).toUpperCase();
  await db.execute(sql`
    insert into outbound_orders (customer_id, number, platform_order_number, recipient_name, recipient_phone,
      recipient_postcode, recipient_address, warehouse_id, logistics_provider_id, status, ship_by, created_at)
    select ${c}, ${`WV${tag}-`} || lpad(i::text, 6, '0'), ${`WVP${tag}-`} || i, '收件人 ' || i, '0912345678', '100',
      '臺北市中正區重慶南路一段 ' || (i % 300) || ' 號', ${seller.warehouseId},
      (${`{${carriers.join(',')}}`}::uuid[])[1 + i % ${carriers.length}], 'exported',
      now() - ((i % 600) * interval '1 minute'), now() - interval '1 day'
    from generate_series(1, ${count}) i`);
  // One line and one reservation each, on the seller's balances at that warehouse (the picker's units).
  await db.execute(sql`
    with o as (select id, number, row_number() over (order by number) as n from outbound_orders
               where customer_id = ${c} and number like ${`WV${tag}-%`}),
         b as (select id, product_id, row_number() over (order by id) as n, count(*) over () as total
               from stock_balances where customer_id = ${c})
    insert into outbound_order_lines (customer_id, order_id, line_no, product_id, quantity)
    select ${c}, o.id, 1, b.product_id, 1 + o.n % 3 from o join b on b.n = 1 + o.n % b.total`);
  await db.execute(sql`
    with o as (select id, number, row_number() over (order by number) as n from outbound_orders
               where customer_id = ${c} and number like ${`WV${tag}-%`}),
         b as (select id, row_number() over (order by id) as n, count(*) over () as total
               from stock_balances where customer_id = ${c})
    insert into stock_reservations (customer_id, balance_id, document_type, document_id, document_number, quantity)
    select ${c}, b.id, 'outbound', o.id, o.number, 1 + o.n % 3 from o join b on b.n = 1 + o.n % b.total`);
  // The piles hold what is reserved on them, as the stock engine keeps it (check:stock compares the two).
  await db.execute(sql`
    update stock_balances b set reserved = b.reserved + s.q
    from (select balance_id, sum(quantity)::int as q from stock_reservations
          where customer_id = ${c} and document_number like ${`WV${tag}-%`} group by balance_id) s
    where b.id = s.balance_id`);
  await db.execute(sql`analyze outbound_orders`);
  await db.execute(sql`analyze stock_reservations`);
}

async function boardFigures(api: TRouteClient, token: string, open: number, runs: number) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    const [res, ms] = await timed(() => ok('board', api.shipBoardRoutes.getShipsToday({ token })));
    rows = res.json().rows.length;
    if (i > 0) times.push(ms); // the first warms the plan cache
  }
  figure(
    'waves',
    `board call (/ships-today) at ${open.toLocaleString('en')} open orders: p50`,
    pct(times, 50).toFixed(1),
    'ms',
    `target ≤ 100 ms; ${rows} rows, ${times.length} calls`,
  );
  figure('waves', 'board call p95', pct(times, 95).toFixed(1), 'ms', 'target ≤ 100 ms');
}

export async function wavesBench(ctx: {
  database: TDatabase;
  url: string;
  sellers: TSellerData[];
  quick: boolean;
}): Promise<void> {
  const open = ctx.quick ? 2_000 : 20_000;
  const waves = ctx.quick ? 5 : 20;
  const seller = ctx.sellers[ctx.sellers.length - 1]!;
  const api = httpClient(ctx.url);
  const login = (await api.authRoutes.login({ body: { email: seller.email, password: seller.password } })).json();
  if (login.status !== 'login') throw new Error('waves: login failed');
  const token = login.access;
  const stamp = Date.now().toString(36).toUpperCase();

  const carriers: string[] = [];
  for (const name of ['TCAT', 'HCT', 'POST'])
    carriers.push(
      (
        await ok(
          'carrier',
          api.partnerRoutes.createLogisticsProvider({
            body: { code: `${name}${stamp}`, name: `${name} ${stamp}` },
            token,
          }),
        )
      ).json().id,
    );
  const t0 = performance.now();
  await writeOpenOrders(ctx.database, seller, open, carriers);
  figure(
    'waves',
    `write ${open.toLocaleString('en')} exported orders (set-based)`,
    ((performance.now() - t0) / 1000).toFixed(1),
    's',
  );

  await boardFigures(api, token, open, ctx.quick ? 10 : 30);

  // A saved channel of all three carriers: 100 orders a wave, one wave after the other.
  const channel = (
    await ok(
      'channel',
      api.releaseChannelRoutes.createReleaseChannel({
        body: {
          warehouse_id: seller.warehouseId,
          name: `Bench ${stamp}`,
          logistics_provider_ids: carriers,
          max_orders: 100,
        },
        token,
      }),
    )
  ).json();
  const [list, listMs] = await timed(() =>
    ok(
      'channels',
      api.releaseChannelRoutes.listReleaseChannels({ query: { warehouse_id: seller.warehouseId }, token }),
    ),
  );
  figure(
    'waves',
    'release channel list (open count + next cut-off)',
    listMs.toFixed(1),
    'ms',
    `open ${list.json().results[0]?.open_count}`,
  );
  const times: number[] = [];
  let taken = 0;
  for (let i = 0; i < waves; i++) {
    const [res, ms] = await timed(() =>
      ok('release', api.releaseChannelRoutes.releaseChannelWave({ params: { id: channel.id }, token })),
    );
    taken += res.json().order_count;
    times.push(ms);
  }
  figure(
    'waves',
    `release next wave of 100 (channel, ${open.toLocaleString('en')} exported): p50`,
    pct(times, 50).toFixed(1),
    'ms',
    `target ≤ 1000 ms per wave; ${waves} waves, ${taken} orders`,
  );
  figure('waves', 'release next wave (channel): max', Math.max(...times).toFixed(1), 'ms', 'target ≤ 1000 ms');

  // Ad hoc, one carrier, with a unit limit (the page-through path).
  const adhoc: number[] = [];
  for (let i = 0; i < Math.min(5, waves); i++)
    adhoc.push(
      (
        await timed(() =>
          ok(
            'release ad hoc',
            api.shipWaveRoutes.releaseWave({
              body: {
                warehouse_id: seller.warehouseId,
                logistics_provider_id: carriers[1],
                max_orders: 100,
                max_units: 150,
              },
              token,
            }),
          ),
        )
      )[1],
    );
  figure(
    'waves',
    'release next wave of 100 (ad hoc, one carrier, max 150 units): max',
    Math.max(...adhoc).toFixed(1),
    'ms',
  );

  // 10 staff on one channel at once.
  const [results, parallelMs] = await timed(() =>
    Promise.all(
      Array.from({ length: 10 }, () =>
        api.releaseChannelRoutes.releaseChannelWave({ params: { id: channel.id }, token }),
      ),
    ),
  );
  const ids = results.filter((r) => r.statusCode === 201).flatMap((r) => r.json().orders.map((o) => o.id));
  const duplicates = ids.length - new Set(ids).size;
  figure(
    'waves',
    '10 releases on one channel at once: wall time',
    parallelMs.toFixed(0),
    'ms',
    `${results.filter((r) => r.statusCode === 201).length} batches, ${ids.length} orders, ${duplicates} in two batches`,
  );
  if (duplicates) throw new Error(`waves: ${duplicates} orders in two batches`);

  const [left] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from outbound_orders where customer_id = ${seller.customerId}
        and status = 'exported' and batch_id is null`,
  );
  await boardFigures(api, token, Number(left?.n ?? 0), ctx.quick ? 5 : 10);
  await walkFigures(ctx.database, api, token, seller);
}

/** Every location edit renumbers the warehouse's walk: an edit's time, and a full renumber's, at the seller's size. */
async function walkFigures(database: TDatabase, api: TRouteClient, token: string, seller: TSellerData) {
  const locations = await queryRows<{ id: string }>(
    database.db,
    sql`select id from storage_locations where customer_id = ${seller.customerId} and warehouse_id = ${seller.warehouseId}
        order by code`,
  );
  if (locations.length < 2) return;
  // A hand-set number moves no other location (no renumber); handing it back to the walk (null) renumbers the whole
  // warehouse (the location needs its derived number).
  const handSet: number[] = [];
  const handedBack: number[] = [];
  for (let i = 0; i < 10; i++) {
    const id = locations[(i * 97) % locations.length]!.id;
    for (const pick_sequence of [5 + i, null])
      (pick_sequence === null ? handedBack : handSet).push(
        (
          await timed(() =>
            ok(
              'location edit',
              api.warehouseRoutes.updateStorageLocation({ params: { id }, body: { pick_sequence }, token }),
            ),
          )
        )[1],
      );
  }
  const n = locations.length.toLocaleString('en');
  figure(
    'waves',
    `location edit, hand-set sequence (${n} locations): p50`,
    pct(handSet, 50).toFixed(1),
    'ms',
    'no renumber',
  );
  figure(
    'waves',
    `location edit, back to the walk: renumbers the warehouse (${n} locations): p50`,
    pct(handedBack, 50).toFixed(1),
    'ms',
    `max ${Math.max(...handedBack).toFixed(1)} ms over ${handedBack.length} edits`,
  );
  const [, full] = await timed(() =>
    ok(
      'renumber',
      api.warehouseRoutes.renumberWalk({ params: { id: seller.warehouseId }, body: { reset_manual: true }, token }),
    ),
  );
  figure(
    'waves',
    `renumber the whole walk (${locations.length.toLocaleString('en')} locations)`,
    full.toFixed(1),
    'ms',
  );
}
