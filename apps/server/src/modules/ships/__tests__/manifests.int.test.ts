import type { TManifest, TManifestList, TShipsToday } from '@wms/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logistics_providers, outbound_orders } from '../../../db/schema';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld, type TWorld } from '../../outbound/__tests__/factories';

/**
 * The handover scan through HTTP on a real database: parcels scanned by tracking or order number into the carrier's
 * open manifest, closed once, never on two manifests; the board counts them handed over.
 */

let ctx: TTestContext;
let w: TWorld;
beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
  ctx.deps.database.pool?.on('connect', (client) => client.on('error', () => {}));
  ctx.deps.database.pool?.on('error', () => {});
  w = await outboundWorld(ctx, { name: 'Handover seller' });
});
afterAll(() => ctx?.close());

/** An order due later today at the stage given (the manifest and the board only read the stage). */
async function parcel(status: string, extra: { consignment_number?: string; logistics_provider_id?: string } = {}) {
  const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }], {
    logistics_provider_id: extra.logistics_provider_id ?? w.carrier.id,
  });
  const shipBy = new Date(taipeiMidnight(taipeiToday(), 1).getTime() - 60_000);
  await ctx.deps.database.db
    .update(outbound_orders)
    .set({ status, ship_by: shipBy, consignment_number: extra.consignment_number ?? null })
    .where(eq(outbound_orders.id, o.id));
  return o;
}

const boardRow = async () => {
  const board = (await ctx.api.shipBoardRoutes.getShipsToday({ token: w.token })).json() as TShipsToday;
  return board.rows.find((r) => r.logistics_provider_id === w.carrier.id)!;
};

describe(`handover scan and manifest (${TEST_ENGINE})`, () => {
  it('scans by tracking or order number, refuses what is not a shipped parcel of this carrier, closes once', async () => {
    const tracking = `TRK-${Date.now()}`;
    const tracked = await parcel('closed', { consignment_number: tracking });
    const plain = await parcel('closed');
    const notShipped = await parcel('exported');
    const [hct] = await ctx.deps.database.db
      .insert(logistics_providers)
      .values({ customer_id: w.customerId, code: 'HCT', name: '新竹物流' })
      .returning();
    const otherCarrier = await parcel('closed', { logistics_provider_id: hct!.id });

    const first = await ctx.api.shipManifestRoutes.scanManifest({
      body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: tracking },
      token: w.token,
    });
    expect(first.statusCode, first.body).toBe(200);
    const m1 = first.json() as TManifest;
    expect(m1).toMatchObject({ status: 'open', parcel_count: 1, provider_code: 'TCAT', warehouse_code: w.wh.code });
    expect(m1.number).toMatch(/^MF\d{12}$/);
    expect(m1.barcode_svg).toContain('<svg');
    const second = (
      await ctx.api.shipManifestRoutes.scanManifest({
        body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: plain.number },
        token: w.token,
      })
    ).json() as TManifest;
    expect(second.id).toBe(m1.id);
    expect(second.parcels.map((p) => p.order_id)).toEqual([tracked.id, plain.id]);

    const again = await ctx.api.shipManifestRoutes.scanManifest({
      body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: plain.number },
      token: w.token,
    });
    expect(again.statusCode).toBe(409);
    expect(again.error()).toMatchObject({
      code: 'MANIFEST_PARCEL_TAKEN',
      params: { number: plain.number, manifest: m1.number },
    });
    expect(
      (
        await ctx.api.shipManifestRoutes.scanManifest({
          body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: notShipped.number },
          token: w.token,
        })
      ).error().code,
    ).toBe('MANIFEST_PARCEL_NOT_SHIPPED');
    expect(
      (
        await ctx.api.shipManifestRoutes.scanManifest({
          body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: otherCarrier.number },
          token: w.token,
        })
      ).error().code,
    ).toBe('MANIFEST_PARCEL_OTHER_CARRIER');
    const unknown = await ctx.api.shipManifestRoutes.scanManifest({
      body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: 'NO-SUCH-PARCEL' },
      token: w.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.error().code).toBe('MANIFEST_PARCEL_UNKNOWN');

    // Not handed over before the manifest closes.
    expect((await boardRow()).handed_over).toBe(0);
    const closed = await ctx.api.shipManifestRoutes.closeManifest({ params: { id: m1.id }, token: w.token });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: 'closed', parcel_count: 2 });
    expect((await boardRow()).handed_over).toBe(2);
    // Closing twice is refused.
    const twice = await ctx.api.shipManifestRoutes.closeManifest({ params: { id: m1.id }, token: w.token });
    expect(twice.statusCode).toBe(409);
    expect(twice.error().code).toBe('MANIFEST_CLOSED');

    // A parcel of the closed manifest cannot go onto a new one; and the refused scan opened nothing.
    const later = await ctx.api.shipManifestRoutes.scanManifest({
      body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: plain.number },
      token: w.token,
    });
    expect(later.error()).toMatchObject({ code: 'MANIFEST_PARCEL_TAKEN', params: { manifest: m1.number } });
    const list = (
      await ctx.api.shipManifestRoutes.listManifests({
        query: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id },
        token: w.token,
      })
    ).json() as TManifestList;
    expect(list.open).toBeNull();
    expect(list.closed.map((m) => m.id)).toEqual([m1.id]);

    // Another seller sees nothing of it.
    const stranger = await ctx.newCustomer();
    expect(
      (await ctx.api.shipManifestRoutes.getManifest({ params: { id: m1.id }, token: stranger.token })).statusCode,
    ).toBe(404);
    expect(
      (
        await ctx.api.shipManifestRoutes.scanManifest({
          body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: plain.number },
          token: stranger.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('at once: one parcel scanned ten times lands on one manifest once; two closes close it once', async () => {
    const p = await parcel('closed');
    const scans = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.api.shipManifestRoutes.scanManifest({
          body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: p.number },
          token: w.token,
        }),
      ),
    );
    expect(scans.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of scans.filter((x) => x.statusCode !== 200))
      expect(r.error().code, r.body).toBe('MANIFEST_PARCEL_TAKEN');
    const open = scans.find((r) => r.statusCode === 200)!.json() as TManifest;
    expect(open.parcel_count).toBe(1);
    const closes = await Promise.all([
      ctx.api.shipManifestRoutes.closeManifest({ params: { id: open.id }, token: w.token }),
      ctx.api.shipManifestRoutes.closeManifest({ params: { id: open.id }, token: w.token }),
    ]);
    expect(closes.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(closes.find((r) => r.statusCode === 409)!.error().code).toBe('MANIFEST_CLOSED');
    // Closing an empty manifest is refused too (none can be made: the first scan opens it); the next scan opens a new one.
    const next = await parcel('closed');
    const reopened = (
      await ctx.api.shipManifestRoutes.scanManifest({
        body: { warehouse_id: w.wh.id, logistics_provider_id: w.carrier.id, code: next.number },
        token: w.token,
      })
    ).json() as TManifest;
    expect(reopened.id).not.toBe(open.id);
    expect(reopened.status).toBe('open');
  });
});

describe(`on-time shipping over 30 days (${TEST_ENGINE})`, () => {
  it('shows the seller the % shipped by the ship-by time, and the CRM the same per seller', async () => {
    const seller = await outboundWorld(ctx, { name: 'On-time seller' });
    const db = ctx.deps.database.db;
    const now = Date.now();
    const DAY = 86400_000;
    const shippedOrder = async (shipBy: number, closedAt: number) => {
      const o = await createOrder(ctx, seller.token, [{ product_id: seller.plain.id, quantity: 1 }]);
      await db
        .update(outbound_orders)
        .set({ status: 'closed', ship_by: new Date(shipBy), closed_at: new Date(closedAt) })
        .where(eq(outbound_orders.id, o.id));
    };
    await shippedOrder(now - 2 * DAY, now - 2 * DAY - 3600_000); // an hour early
    await shippedOrder(now - 5 * DAY, now - 5 * DAY); // right at ship-by
    await shippedOrder(now - 10 * DAY, now - 10 * DAY - 60_000);
    await shippedOrder(now - 3 * DAY, now - 3 * DAY + 3600_000); // an hour late
    await shippedOrder(now - 40 * DAY, now - 39 * DAY); // late, but 39 days ago: outside the window
    await createOrder(ctx, seller.token, [{ product_id: seller.plain.id, quantity: 1 }]); // not shipped

    const dash = await ctx.api.analysisRoutes.dashboard({ token: seller.token });
    expect(dash.statusCode, dash.body).toBe(200);
    expect(dash.json().on_time).toEqual({ shipped: 4, on_time: 3, percent: 75 });

    const employee = await ctx.newEmployee();
    const crm = await ctx.api.crmRoutes.dashboard({ token: employee.token });
    expect(crm.statusCode, crm.body).toBe(200);
    const row = crm.json().by_customer.find((c: { customer_id: string }) => c.customer_id === seller.customerId);
    expect(row).toMatchObject({ on_time_percent: 75, shipped_30d: 4 });
    // A seller with nothing shipped: no rate rather than 0 %.
    const idle = await ctx.newCustomer();
    expect((await ctx.api.analysisRoutes.dashboard({ token: idle.token })).json().on_time).toEqual({
      shipped: 0,
      on_time: 0,
      percent: null,
    });
  });
});
