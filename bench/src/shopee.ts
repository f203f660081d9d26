import { sql } from 'drizzle-orm';
import { queryRows, type TDatabase } from '../../apps/server/src/db/client';
import { fakeShopeeOrder, startFakeShopee, type TFakeShopee } from '../../apps/server/src/test/fakes/fake-shopee';
import { httpClient, loginToken, ok } from './client';
import type { TSellerData } from './generate';
import { CLEANUP, figure } from './registry';

const log = (msg: string) => console.log(`[bench] ${msg}`);
let fake: TFakeShopee | null = null;

/**
 * The bench server talks to a fake Shopee on 127.0.0.1 (started before the server: its URL and keys are env). One
 * fake for every step that wants it (shopee, peak), closed when the bench ends.
 */
export async function shopeeServerEnv(): Promise<Record<string, string>> {
  if (!fake) {
    const started = await startFakeShopee();
    fake = started;
    CLEANUP.push(() => started.close());
  }
  return {
    SHOPEE_PARTNER_ID: String(fake.partnerId),
    SHOPEE_PARTNER_KEY: fake.partnerKey,
    SHOPEE_BASE_URL: fake.url,
  };
}

/**
 * Shopee order sync on the running server (PostgreSQL): a shop connected through the partner authorisation, N
 * READY_TO_SHIP orders on the fake (list pages of 100, details 50 at a time), one "sync now". Figure: orders created
 * per second from the request to the job's end; a second sync of the same window creates none.
 */
export async function shopeeBench(ctx: { database: TDatabase; url: string; sellers: TSellerData[]; quick: boolean }) {
  if (!fake) throw new Error('fake Shopee not started');
  const n = 2000;
  const seller = ctx.sellers[0]!;
  const api = httpClient(ctx.url);
  const access = await loginToken(api, seller);
  const shopId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
  const shop = await ok(
    'connect shop',
    api.shopeeRoutes.connectShopeeShop({ body: { code: fake.issueCode(shopId), shop_id: shopId }, token: access }),
  );
  const [product] = await queryRows<{ number: string }>(
    ctx.database.db,
    sql`select number from products where customer_id = ${seller.customerId} and type = 'single' and status = 'active'
        order by number limit 1`,
  );
  // Let the connect's first (empty) sync finish, then the orders arrive.
  await new Promise((r) => setTimeout(r, 2000));
  const now = Math.floor(Date.now() / 1000);
  fake.addOrders(
    shopId,
    Array.from({ length: n }, (_, i) =>
      fakeShopeeOrder(`B${shopId}${String(i).padStart(6, '0')}`, [{ sku: product!.number, quantity: 1 + (i % 3) }], {
        update_time: now - 60,
      }),
    ),
  );
  const run = async () => {
    const t0 = performance.now();
    const { job_id } = await ok('sync', api.shopeeRoutes.syncShopeeShop({ params: { id: shop.id }, token: access }));
    for (;;) {
      const job = (await ok('job', api.jobRoutes.getJob({ params: { id: job_id }, token: access }))) as {
        state: string;
        result: { created: number; skipped: number } | null;
        error: unknown;
      };
      if (job.state === 'succeeded') return { ms: performance.now() - t0, result: job.result! };
      if (job.state === 'failed' || job.state === 'cancelled')
        throw new Error(`sync ${job.state}: ${JSON.stringify(job.error)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const first = await run();
  const again = await run();
  const [made] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from outbound_orders o join ecommerce_platforms p on p.id = o.platform_id
        where p.code = ${shop.platform_code}`,
  );
  const rate = Math.round((first.result.created / first.ms) * 1000);
  log(
    `shopee sync: ${first.result.created} orders in ${(first.ms / 1000).toFixed(1)} s = ${rate} orders/s; ` +
      `again: ${again.result.created} created, ${again.result.skipped} skipped in ${(again.ms / 1000).toFixed(1)} s; ${made!.n} orders in all`,
  );
  figure(
    'shopee',
    `sync ${n} Shopee orders (fake Shopee, PostgreSQL)`,
    rate,
    'orders/s',
    `re-run: ${again.result.created} created, ${made!.n} in all`,
  );
}

/** The fake Shopee of this run, when a step asked for it. */
export function fakeShopee(): TFakeShopee | null {
  return fake;
}
