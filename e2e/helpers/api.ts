import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { createRouteClient, type TRouteClient, type TRouteResponse } from '@wms/contracts/client';
import { loginByApi, registerByApi, type TCredentials } from './session';

/**
 * e2e set-up through the typed route client (`@wms/contracts/client`), as the server tests and the bench call the API:
 * paths, inputs and answers come from the contract, not from paths written by hand. The transport is
 * Playwright's request context (the app's base URL).
 */

/** Who calls: the route client over the page's request context and the user's bearer token. */
export interface TSession {
  api: TRouteClient;
  token: string;
}
/** The body a route of the client takes. */
type TBody<F extends (input: never) => unknown> = NonNullable<Parameters<F>[0]> extends { body?: infer B } ? B : never;

/** The route client over a Playwright request context (`page.request`). */
export function apiOf(request: APIRequestContext): TRouteClient {
  return createRouteClient(async (req) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {}))
      for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
    const res = await request.fetch(req.url, {
      method: req.method,
      headers: req.headers,
      params,
      ...(req.body === undefined ? {} : { data: req.body }),
      ...(req.timeoutMs ? { timeout: req.timeoutMs } : {}),
    });
    return { statusCode: res.status(), headers: res.headers(), rawPayload: new Uint8Array(await res.body()) };
  });
}

/** A set-up call that must succeed: its typed answer, or the test fails naming the answer. */
export async function ok<T>(call: Promise<TRouteResponse<T>>): Promise<T> {
  const res = await call;
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

/** A new seller, registered and signed in in this page (its session stored as the login page stores it). */
export async function newSeller(
  page: Page,
  language: 'zh-TW' | 'ja' | 'en' = 'zh-TW',
): Promise<TSession & { seller: TCredentials & { name: string } }> {
  const seller = await registerByApi(page, language);
  const session = await loginByApi(page, seller);
  return { api: apiOf(page.request), token: session.access, seller };
}

/** An existing user (the demo seller, the provider's staff) signed in in this page, as `loginByApi` does. */
export async function signIn(page: Page, who: TCredentials): Promise<TSession & { refresh: string }> {
  const session = await loginByApi(page, who);
  return { api: apiOf(page.request), token: session.access, refresh: session.refresh };
}

/** The user's language: on the account (what the server writes: mails, files) and in this page's app. */
export async function setLanguage(
  page: Page,
  { api, token }: TSession,
  language: 'zh-TW' | 'ja' | 'en',
): Promise<void> {
  await ok(api.authRoutes.updateProfile({ body: { language }, token }));
  await page.evaluate((l) => localStorage.setItem('wms.language', l), language);
}

/** Sellable storage locations of these codes in a warehouse, created in this order. */
export async function sellableLocations<const C extends readonly string[]>(
  { api, token }: TSession,
  warehouseId: string,
  codes: C,
): Promise<{ [K in keyof C]: { id: string; code: string } }> {
  const out: Array<{ id: string; code: string }> = [];
  for (const code of codes)
    out.push(
      await ok(
        api.warehouseRoutes.createStorageLocation({
          body: { warehouse_id: warehouseId, code, kind: 'sellable' },
          token,
        }),
      ),
    );
  return out as { [K in keyof C]: { id: string; code: string } };
}

/** Units booked in at a location at once (quick entry): `code` is the product's number or barcode. */
export async function stockIn(
  { api, token }: TSession,
  warehouseId: string,
  code: string,
  quantity: number,
  locationCode: string,
): Promise<void> {
  await ok(
    api.inboundRoutes.quickInbound({
      body: { warehouse_id: warehouseId, code, quantity, location_code: locationCode },
      token,
    }),
  );
}

/** A receipt planned for today, waiting to be received. */
export function receipt(
  { api, token }: TSession,
  warehouseId: string,
  lines: Array<{ product_id: string; quantity: number }>,
) {
  return ok(
    api.inboundRoutes.createReceipt({
      body: { warehouse_id: warehouseId, planned_date: new Date().toISOString().slice(0, 10), lines },
      token,
    }),
  );
}

/**
 * Where a product is on hand: location code → units, the locations holding none left out (`{ empty: true }` keeps
 * them, for a test that also checks no emptied location lingers).
 */
export async function onHand(
  { api, token }: TSession,
  productId: string,
  { empty = false }: { empty?: boolean } = {},
): Promise<Record<string, number>> {
  const body = await ok(api.stockRoutes.productLocation({ query: { product_id: productId, page_size: 100 }, token }));
  return Object.fromEntries(
    body.results.filter((r) => empty || r.on_hand > 0).map((r) => [r.location_code, r.on_hand]),
  );
}

/** An order, created and exported (its stock reserved): what picking and packing start from. */
export async function exportedOrder(
  { api, token }: TSession,
  body: TBody<TRouteClient['outboundRoutes']['createOrder']>,
) {
  const order = await ok(api.outboundRoutes.createOrder({ body, token }));
  const exported = await ok(api.outboundRoutes.bulkTransition({ body: { ids: [order.id], action: 'export' }, token }));
  expect(JSON.stringify(exported)).not.toContain('"ok":false');
  return order;
}

/**
 * A product with free stock in a warehouse of its own: the product (`extra`: its barcode, another name), a warehouse, one
 * sellable location and a quick entry of `quantity` units there (what exporting an order needs; `receipt` is the
 * quick entry's confirmed receipt). `stamp` makes the codes unique.
 */
export async function stockedProduct(
  api: TRouteClient,
  token: string,
  stamp: string,
  quantity = 10,
  extra: { barcode?: string; name?: string } = {},
) {
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `P-${stamp}`, name: `商品 ${stamp}`, ...extra }, token }),
  );
  const warehouse = await ok(
    api.warehouseRoutes.createWarehouse({ body: { code: `WH-${stamp}`, name: `E2E ${stamp}` }, token }),
  );
  const location = await ok(
    api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: warehouse.id, code: `A-${stamp}`, kind: 'sellable', pick_sequence: 1 },
      token,
    }),
  );
  const receipt = await ok(
    api.inboundRoutes.quickInbound({
      body: { warehouse_id: warehouse.id, code: product.number, quantity, location_code: location.code },
      token,
    }),
  );
  return { product, warehouse, location, receipt };
}

/** The one order a search finds (by its number, its platform order number, …): the test fails unless it is one. */
export async function theOrder({ api, token }: TSession, search: string) {
  const found = await ok(api.outboundRoutes.listOrders({ query: { search }, token }));
  expect(found.results, search).toHaveLength(1);
  return found.results[0]!;
}

/**
 * An exported order packed and shipped as the packing station does it: `units` scans of `barcode`, the tracking
 * number (`consignment`), then ship. Answers the shipped order.
 */
export async function packAndShip(
  { api, token }: TSession,
  orderId: string,
  pack: { barcode: string; units: number; consignment: TBody<TRouteClient['outboundRoutes']['setConsignment']> },
) {
  for (let u = 0; u < pack.units; u++)
    await ok(api.outboundRoutes.packScan({ params: { id: orderId }, body: { barcode: pack.barcode }, token }));
  await ok(api.outboundRoutes.setConsignment({ params: { id: orderId }, body: pack.consignment, token }));
  return ok(api.outboundRoutes.shipOrder({ params: { id: orderId }, body: {}, token }));
}

/** The provider's staff: a seller's company as the CRM lists it (searched by its name), for staff-side set-up. */
export async function crmCustomer({ api, token }: TSession, companyName: string) {
  const found = await ok(api.crmRoutes.listCustomers({ query: { search: companyName }, token }));
  expect(found.results.length, `no CRM customer named ${companyName}`).toBeGreaterThan(0);
  return found.results[0]!;
}
