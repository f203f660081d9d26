import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { createRouteClient, type TRouteClient, type TRouteResponse } from '@wms/contracts/client';
import { loginByApi, registerByApi, type TCredentials } from './session';

/**
 * e2e set-up through the typed route client (`@wms/contracts/client`), as the server tests and the bench call the API:
 * paths, inputs and answers come from the contract, not from paths written by hand. The transport is
 * Playwright's request context (the app's base URL).
 */

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
): Promise<{ api: TRouteClient; token: string; seller: TCredentials & { name: string } }> {
  const seller = await registerByApi(page, language);
  const session = await loginByApi(page, seller);
  return { api: apiOf(page.request), token: session.access, seller };
}

/**
 * A product with free stock in a warehouse of its own: the product, a warehouse, one sellable location and a quick
 * entry of `quantity` units there (what exporting an order needs). `stamp` makes the codes unique.
 */
export async function stockedProduct(
  api: TRouteClient,
  token: string,
  stamp: string,
  quantity = 10,
): Promise<{
  product: { id: string; number: string };
  warehouse: { id: string };
  location: { id: string; code: string };
}> {
  const product = await ok(
    api.catalogRoutes.createProduct({ body: { number: `P-${stamp}`, name: `商品 ${stamp}` }, token }),
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
  await ok(
    api.inboundRoutes.quickInbound({
      body: { warehouse_id: warehouse.id, code: product.number, quantity, location_code: location.code },
      token,
    }),
  );
  return { product, warehouse, location };
}
