import http from 'node:http';
import { sql } from 'drizzle-orm';
import { queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { largeOrderFile } from '../../apps/server/src/test/order-file';
import { httpClient, loginToken, ok } from './client';
import type { TSellerData } from './generate';
import { figure } from './registry';

const log = (msg: string) => console.log(`[bench] ${msg}`);

/**
 * Order callbacks end to end on the running server: a partner receiver on 127.0.0.1 that answers in 50 ms; N orders
 * created through the partner API (`partnerApiRoutes.apiCreateOrder`), each one `order.created` callback (trigger → dispatcher →
 * outbox → signed POST). Figure: callbacks delivered per second from the first order to the last callback.
 */
export async function callbacksBench(ctx: {
  database: TDatabase;
  url: string;
  sellers: TSellerData[];
  quick: boolean;
}) {
  const orders = ctx.quick ? 100 : 500;
  const seller = ctx.sellers[0]!;
  let received = 0;
  const times: number[] = [];
  let done: () => void = () => {};
  const all = new Promise<void>((r) => {
    done = r;
  });
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200).end('ok');
        times.push(performance.now());
        if (++received === orders) done();
      }, 50),
    );
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  try {
    const api = httpClient(ctx.url);
    const access = await loginToken(api, seller);
    const setting = await ok(
      'api setting',
      api.apiSettingRoutes.createApiSetting({
        body: {
          name: 'Bench ERP',
          kind: 'partner',
          callback_url: hook,
          order_callback_enabled: true,
          rate_limit_per_minute: 6000,
        },
        token: access,
      }),
    );
    const { api_key } = await ok(
      'enable api setting',
      api.apiSettingRoutes.enableApiSetting({ params: { id: setting.id }, token: access }),
    );
    if (!api_key) throw new Error('enable api setting: no key');
    const [product] = await queryRows<{ number: string }>(
      ctx.database.db,
      sql`select number from products where customer_id = ${seller.customerId} and type = 'single' order by number limit 1`,
    );
    const [warehouse] = await queryRows<{ code: string }>(
      ctx.database.db,
      sql`select code from warehouses where id = ${seller.warehouseId}`,
    );
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < orders) {
          const n = next++;
          await ok(
            'partner order',
            api.partnerApiRoutes.apiCreateOrder({
              apiKey: api_key,
              body: {
                order_number: `CB-BENCH-${Date.now()}-${n}`,
                warehouse: warehouse!.code,
                recipient_name: '王小明',
                recipient_mobile: '0912345678',
                recipient_postcode: '100',
                recipient_address: '台北市中正區重慶南路一段 122 號',
                lines: [{ sku: product!.number, quantity: 1 }],
              },
            }),
          );
        }
      }),
    );
    const createdS = (performance.now() - t0) / 1000;
    await Promise.race([
      all,
      new Promise((_, reject) => setTimeout(() => reject(new Error('callbacks timed out')), 300_000)),
    ]);
    const s = (performance.now() - t0) / 1000;
    // Deliveries per second while they flowed (first to last callback), apart from how fast orders came in.
    const span = (times[times.length - 1]! - times[0]!) / 1000;
    log(`callbacks: ${orders} delivered in ${s.toFixed(1)} s`);
    figure(
      'callbacks',
      `PostgreSQL: ${orders} order callbacks to a receiver answering in 50 ms`,
      ((orders - 1) / span).toFixed(1),
      'callbacks/s',
      `first to last callback ${span.toFixed(1)} s; orders created through /api/v1 at ${(orders / createdS).toFixed(0)}/s (8 clients); last callback ${s.toFixed(1)} s after the first order`,
    );

    // The dispatcher and delivery alone: one file import creates many orders in one transaction (one notification);
    // the figure is callbacks per second from the first to the last of them.
    const imported = ctx.quick ? 300 : 2000;
    const products = await queryRows<{ number: string }>(
      ctx.database.db,
      sql`select number from products where customer_id = ${seller.customerId} and type = 'single' order by number limit 50`,
    );
    const file = await largeOrderFile(
      imported * 2,
      products.map((p) => p.number),
      {
        prefix: `CBI${Date.now()}`,
        addressPad: 0,
      },
    );
    times.length = 0;
    received = 0;
    const target = imported;
    const drained = new Promise<void>((resolve, reject) => {
      const t = setInterval(() => {
        if (received >= target) {
          clearInterval(t);
          resolve();
        }
      }, 50);
      setTimeout(() => {
        clearInterval(t);
        reject(new Error(`import callbacks timed out (${received} of ${target})`));
      }, 600_000);
    });
    const i0 = performance.now();
    await ok(
      'order import',
      api.outboundRoutes.importOrders({
        body: { file_base64: file.toString('base64'), file_name: 'orders.xlsx' },
        token: access,
      }),
    );
    await drained;
    const drain = (times[times.length - 1]! - times[0]!) / 1000;
    figure(
      'callbacks',
      `PostgreSQL: ${imported} order callbacks after one file import, receiver answering in 50 ms`,
      ((imported - 1) / drain).toFixed(1),
      'callbacks/s',
      `first to last callback ${drain.toFixed(1)} s (8 deliveries at once per process); first callback ${((times[0]! - i0) / 1000).toFixed(1)} s after the upload`,
    );
  } finally {
    await new Promise((r) => receiver.close(r));
  }
}
