import { readdirSync, readFileSync } from 'node:fs';
import type { TRouteClient } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import { queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { checkStockInvariants } from '../../apps/server/src/modules/stock/stock.invariants';
import { fakeShopeeOrder } from '../../apps/server/src/test/fakes/fake-shopee';
import { largeOrderFile } from '../../apps/server/src/test/order-file';
import { httpClient } from './client';
import type { TSellerData } from './generate';
import type { TLoadResult } from './load';
import { figure, report } from './registry';
import { fakeShopee } from './shopee';

/**
 * `npm run bench -- --only=peak`: a warehouse's worst hour, everything at once for a fixed window (3 minutes; 30 s
 * with --quick) on one server process and PostgreSQL: an import of 50,000 orders (a 100,000-row file), waves of bulk export (1,000 orders
 * every 5 s), 20 packing stations each scanning one unit a second, 50 office users each opening a list page every
 * 2 s, partner API clients creating 20 orders a second (create through /api/v1, then export, one order at a time) and
 * a Shopee sync of 2,000 orders. Per class: p50/p95/p99, throughput, errors; the import's time against the same
 * import alone just before; CPU seconds of the server's processes and of PostgreSQL's during the window (what the
 * limit is); check:stock after. Every call goes through the typed route client (bench/src/client.ts).
 */

const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type TClass = { name: string; times: number[]; errors: number; firstError?: string };
const classes = new Map<string, TClass>();
function klass(name: string): TClass {
  let c = classes.get(name);
  if (!c) {
    c = { name, times: [], errors: 0 };
    classes.set(name, c);
  }
  return c;
}
/** Time one call of a class; a non-2xx answer or a throw is an error of that class. */
async function timed<T extends { statusCode: number; body: string }>(name: string, call: () => Promise<T>) {
  const c = klass(name);
  const t0 = performance.now();
  try {
    const res = await call();
    c.times.push(performance.now() - t0);
    if (res.statusCode >= 300) {
      c.errors++;
      c.firstError ??= `${res.statusCode} ${res.body.slice(0, 200)}`;
    }
    return res;
  } catch (err) {
    c.errors++;
    c.firstError ??= (err as Error).message.slice(0, 200);
    return null;
  }
}

/** A set-up call must succeed: its answer, or the bench step fails naming it. */
function must<T extends { statusCode: number; body: string }>(res: T, what: string): T {
  if (res.statusCode >= 300) throw new Error(`peak: ${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

/** CPU seconds (user + system) of the processes under `pids`, and of every `postgres` process of the machine. */
function cpuSeconds(serverPids: Array<number | undefined>): { server: number; database: number } {
  const tick = 100; // USER_HZ on Linux
  const stat = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const s = readFileSync(`/proc/${e}/stat`, 'utf8');
      const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      stat.set(Number(e), { ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // ended meanwhile
    }
  }
  let server = 0;
  const walk = (p: number) => {
    server += stat.get(p)?.ticks ?? 0;
    for (const [child, s] of stat) if (s.ppid === p) walk(child);
  };
  for (const pid of serverPids) if (pid) walk(pid);
  let database = 0;
  for (const s of stat.values()) if (s.comm === 'postgres') database += s.ticks;
  return { server: server / tick, database: database / tick };
}

async function waitJob(api: TRouteClient, token: string, id: string, limitMs: number) {
  const t0 = Date.now();
  for (;;) {
    const job = (await api.jobRoutes.getJob({ params: { id }, token })).json();
    if (job.state !== 'queued' && job.state !== 'running') return job;
    if (Date.now() - t0 > limitMs) return job;
    await sleep(250);
  }
}

export async function peakBench(ctx: {
  database: TDatabase;
  url: string;
  sellers: TSellerData[];
  quick: boolean;
  serverPid?: number;
  /**
   * The scale-out run (`scaleout` step): the app's processes (the clients are spread over them in turn), their pids,
   * the report's group and the engine's label. Default: the one process at `url`, group `peak`.
   */
  processes?: { urls: string[]; pids: Array<number | undefined>; group: string; engine: string };
}): Promise<void> {
  classes.clear();
  const group = ctx.processes?.group ?? 'peak';
  const engine = ctx.processes?.engine ?? 'postgres (1 process, direct)';
  const pids = ctx.processes?.pids ?? [ctx.serverPid];
  const apis = (ctx.processes?.urls ?? [ctx.url]).map((u) => httpClient(u));
  /** The client of the k-th station, user or order: spread over the processes. */
  const at = (k: number) => apis[k % apis.length]!;
  const windowS = ctx.quick ? 30 : 180;
  // The order file has two lines per order: 100,000 rows are the issue's 50,000 orders.
  const importRows = ctx.quick ? 10_000 : 100_000;
  const stations = 20;
  const office = 50;
  const partnerPerSecond = 20;
  const shopeeOrders = ctx.quick ? 200 : 2_000;
  const api = apis[0]!;
  const seller = ctx.sellers[0]!;
  const db = ctx.database.db;
  const login = await api.authRoutes.login({ body: { email: seller.email, password: seller.password } });
  const loginBody = login.json();
  if (loginBody.status !== 'login') throw new Error(`peak: login ${login.statusCode} ${login.body.slice(0, 200)}`);
  const token = loginBody.access;
  const stamp = Date.now().toString(36).toUpperCase();

  const products = await queryRows<{ id: string; number: string; barcode: string | null }>(
    db,
    sql`select id, number, barcode from products where customer_id = ${seller.customerId} and type = 'single'
        and status = 'active' order by number limit 5000`,
  );
  const numbers = products.map((p) => p.number);
  const [warehouse] = await queryRows<{ code: string }>(
    db,
    sql`select code from warehouses where id = ${seller.warehouseId}`,
  );

  // ---- the import alone: its quiet time ----
  const runImport = async (prefix: string) => {
    const file = await largeOrderFile(importRows, numbers, { prefix, addressPad: 0 });
    const t0 = Date.now();
    const res = await api.outboundRoutes.importOrders({
      body: { file_base64: file.toString('base64'), file_name: 'orders.xlsx' },
      token,
    });
    if (res.statusCode !== 202) throw new Error(`peak: import ${res.statusCode} ${res.body.slice(0, 200)}`);
    const job = await waitJob(api, token, res.json().id, 900_000);
    return { ms: Date.now() - t0, state: job.state };
  };
  const quiet = await runImport(`PQ${stamp}`);
  log(
    `peak: the ${importRows}-row import (${importRows / 2} orders) alone took ${(quiet.ms / 1000).toFixed(1)} s (${quiet.state})`,
  );

  // ---- set-up of the window's work (not timed) ----
  const withBarcode = products.filter((p) => p.barcode);
  const ordersPerStation = Math.ceil(windowS / 9) + 2;
  const packing: Array<Array<{ id: string; barcodes: string[] }>> = Array.from({ length: stations }, () => []);
  for (let s = 0; s < stations; s++) {
    for (let i = 0; i < ordersPerStation; i++) {
      const n = s * ordersPerStation + i;
      const picked = [0, 1, 2].map((k) => withBarcode[(n * 3 + k * 31) % withBarcode.length]!);
      const o = await api.outboundRoutes.createOrder({
        body: {
          recipient_name: `Pack ${n}`,
          recipient_phone: '0912345678',
          recipient_postcode: '100',
          recipient_address: `臺北市中正區重慶南路一段 ${n} 號`,
          lines: picked.map((p) => ({ product_id: p.id, quantity: 3 })),
        },
        token,
      });
      must(o, 'packing order');
      packing[s]!.push({ id: o.json().id, barcodes: picked.map((p) => p.barcode!) });
    }
  }
  const packIds = packing.flat().map((o) => o.id);
  for (let i = 0; i < packIds.length; i += 1000)
    must(
      await api.outboundRoutes.bulkTransition({ body: { action: 'export', ids: packIds.slice(i, i + 1000) }, token }),
      'export of the packing orders',
    );

  const setting = must(
    await api.apiSettingRoutes.createApiSetting({
      body: { name: `Peak ERP ${stamp}`, kind: 'partner', rate_limit_per_minute: 6000 },
      token,
    }),
    'partner API setting',
  ).json();
  const { api_key } = must(
    await api.apiSettingRoutes.enableApiSetting({ params: { id: setting.id }, token }),
    'partner API key',
  ).json();

  const shopee = fakeShopee();
  let shop: { id: string } | null = null;
  if (shopee) {
    const shopId = 8_000_000 + Math.floor(Math.random() * 1_000_000);
    const connected = must(
      await api.shopeeRoutes.connectShopeeShop({ body: { code: shopee.issueCode(shopId), shop_id: shopId }, token }),
      'Shopee shop',
    );
    shop = connected.json();
    await sleep(2000); // the connect's own first (empty) sync
    const now = Math.floor(Date.now() / 1000);
    shopee.addOrders(
      shopId,
      Array.from({ length: shopeeOrders }, (_, i) =>
        fakeShopeeOrder(
          `P${shopId}${String(i).padStart(6, '0')}`,
          [{ sku: numbers[i % numbers.length]!, quantity: 1 }],
          {
            update_time: now - 60,
          },
        ),
      ),
    );
  }
  const peakFile = await largeOrderFile(importRows, numbers, { prefix: `PK${stamp}`, addressPad: 0 });

  // ---- the window ----
  const cpu0 = cpuSeconds(pids);
  const t0 = Date.now();
  const deadline = t0 + windowS * 1000;
  const open = () => Date.now() < deadline;
  const running: Array<Promise<unknown>> = [];

  // The import (HTTP upload → job), timed to its end even when that is after the window.
  running.push(
    (async () => {
      const i0 = Date.now();
      const res = await timed('import upload', () =>
        api.outboundRoutes.importOrders({
          body: { file_base64: peakFile.toString('base64'), file_name: 'orders.xlsx' },
          token,
        }),
      );
      if (res?.statusCode !== 202) return;
      const job = await waitJob(api, token, res.json().id, 1_800_000);
      const ms = Date.now() - i0;
      figure(
        group,
        `import of ${(importRows / 2).toLocaleString('en')} orders (${importRows.toLocaleString('en')} rows) during the peak (against alone)`,
        (ms / 1000).toFixed(1),
        's',
        `alone ${(quiet.ms / 1000).toFixed(1)} s → ${(ms / quiet.ms).toFixed(2)}× (target ≤ 2×); job ${job.state}`,
      );
    })(),
  );

  // Waves of bulk export: every 5 s the next 1,000 imported orders still to export.
  running.push(
    (async () => {
      let exported = 0;
      while (open()) {
        const w0 = Date.now();
        const ids = await queryRows<{ id: string }>(
          db,
          sql`select id from outbound_orders where customer_id = ${seller.customerId} and status = 'pending_export'
              and platform_order_number like ${`PK${stamp}-%`} order by created_at limit 1000`,
        );
        if (ids.length) {
          const res = await timed('bulk export wave (1,000 orders)', () =>
            api.outboundRoutes.bulkTransition({ body: { action: 'export', ids: ids.map((r) => r.id) }, token }),
          );
          if (res?.statusCode === 200) exported += res.json().results.filter((r) => r.ok).length;
        }
        await sleep(Math.max(0, 5000 - (Date.now() - w0)));
      }
      figure(group, 'orders exported by the waves', exported, 'orders');
    })(),
  );

  // 20 packing stations, one scan a second each.
  for (const [station, orders] of packing.entries())
    running.push(
      (async () => {
        const api = at(station);
        for (const o of orders)
          for (let unit = 0; unit < 9 && open(); unit++) {
            const s0 = Date.now();
            await timed('pack scan', () =>
              api.outboundRoutes.packScan({ params: { id: o.id }, body: { barcode: o.barcodes[unit % 3]! }, token }),
            );
            await sleep(Math.max(0, 1000 - (Date.now() - s0)));
          }
      })(),
    );

  // 50 office users, a list page every 2 s each (product stock, order list, stock log in turn).
  for (let u = 0; u < office; u++)
    running.push(
      (async () => {
        const api = at(u);
        await sleep((u * 2000) / office);
        for (let k = u; open(); k++) {
          const s0 = Date.now();
          const page = 1 + (k % 5);
          if (k % 3 === 0)
            await timed('list page', () =>
              api.stockRoutes.productStock({ query: { page, page_size: 25, search: 'SKU00' }, token }),
            );
          else if (k % 3 === 1)
            await timed('list page', () =>
              api.outboundRoutes.listOrders({ query: { page, page_size: 25, ordering: '-created_at' }, token }),
            );
          else await timed('list page', () => api.stockRoutes.stockLog({ query: { page, page_size: 25 }, token }));
          await sleep(Math.max(0, 2000 - (Date.now() - s0)));
        }
      })(),
    );

  // Partner API clients: 20 orders a second, each created and then exported, one at a time.
  running.push(
    (async () => {
      const inFlight: Array<Promise<unknown>> = [];
      for (let n = 0; open(); n++) {
        const s0 = Date.now();
        inFlight.push(
          (async () => {
            const api = at(n);
            const created = await timed('partner API create', () =>
              api.partnerApiRoutes.apiCreateOrder({
                body: {
                  order_number: `PA${stamp}-${n}`,
                  warehouse: warehouse!.code,
                  recipient_name: '王小明',
                  recipient_mobile: '0912345678',
                  recipient_postcode: '100',
                  recipient_address: '台北市中正區重慶南路一段 122 號',
                  lines: [{ sku: numbers[(n * 7) % numbers.length]!, quantity: 1 }],
                },
                apiKey: api_key,
              }),
            );
            if (created?.statusCode === 201 || created?.statusCode === 200) {
              await timed('partner order export', () =>
                api.outboundRoutes.transitionOrder({
                  params: { id: created.json().id },
                  body: { action: 'export' },
                  token,
                }),
              );
            }
          })(),
        );
        await sleep(Math.max(0, 1000 / partnerPerSecond - (Date.now() - s0)));
      }
      await Promise.all(inFlight);
    })(),
  );

  // One Shopee sync of 2,000 orders.
  if (shop)
    running.push(
      (async () => {
        const s0 = Date.now();
        const res = await timed('shopee sync request', () =>
          api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token }),
        );
        if (res?.statusCode !== 202) return;
        const job = await waitJob(api, token, res.json().job_id!, 1_800_000);
        const result = job.result as { created?: number } | null;
        figure(
          group,
          `Shopee sync of ${shopeeOrders.toLocaleString('en')} orders during the peak`,
          ((Date.now() - s0) / 1000).toFixed(1),
          's',
          `job ${job.state}, ${result?.created ?? 0} created`,
        );
      })(),
    );

  await sleep(windowS * 1000);
  const cpu1 = cpuSeconds(pids);
  await Promise.all(running);

  for (const c of classes.values()) {
    const sorted = [...c.times].sort((a, b) => a - b);
    const result: TLoadResult = {
      name: `peak hour: ${c.name}`,
      engine,
      requests: c.times.length,
      rps: Math.round((c.times.length / windowS) * 10) / 10,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      errors: c.errors,
      non2xx: 0,
    };
    report.load.push(result);
    log(
      `peak ${c.name}: ${result.requests} calls, ${result.rps}/s, p50 ${result.p50} p95 ${result.p95} p99 ${result.p99} ms, ${c.errors} errors` +
        (c.firstError ? ` (first: ${c.firstError})` : ''),
    );
  }
  const targets: Array<[string, number]> = [
    ['pack scan', 150],
    ['list page', 300],
    ['partner API create', 250],
  ];
  for (const [name, target] of targets) {
    const c = classes.get(name);
    const p95 = c
      ? percentile(
          [...c.times].sort((a, b) => a - b),
          95,
        )
      : 0;
    figure(group, `${name} p95 during the peak`, p95, 'ms', `target ≤ ${target} ms; ${c?.errors ?? 0} errors`);
  }
  const errors = [...classes.values()].reduce((a, c) => a + c.errors, 0);
  figure(group, 'errors during the peak (all classes)', errors, 'errors', 'target 0');
  figure(
    group,
    `CPU seconds in the ${windowS} s window (2 cores = ${windowS * 2} s)`,
    `${(cpu1.server - cpu0.server).toFixed(0)} / ${(cpu1.database - cpu0.database).toFixed(0)}`,
    's',
    'server processes (Node) / PostgreSQL processes',
  );
  const violations = await checkStockInvariants(db);
  const byRule = new Map<string, number>();
  for (const v of violations) byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1);
  figure(
    group,
    'check:stock after the peak',
    violations.length,
    'violations',
    violations.length
      ? `${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')}; first: ${violations[0]!.rule} ${violations[0]!.balanceId} ${violations[0]!.detail}`
      : '',
  );
  log(
    `peak: CPU server ${(cpu1.server - cpu0.server).toFixed(0)} s, PostgreSQL ${(cpu1.database - cpu0.database).toFixed(0)} s in ${windowS} s; check:stock ${violations.length} violations`,
  );
}
