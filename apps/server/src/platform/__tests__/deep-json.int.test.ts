import { authRoutes, billingRoutes, shopeeRoutes } from '@wms/contracts';
import { invalidInput, type TRouteClient } from '@wms/contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, injectClient, type TTestContext } from '../../test/harness';
import { MAX_INPUT_DEPTH, unstorableField } from '../http';

/**
 * Deeply nested JSON is refused with 400 BODY_TOO_DEEP on every route with a body — sign-in and the outside systems'
 * notifies included — at any depth up to the body limit: the input guard walks the body without recursion, and a
 * parser that gives up on the depth is answered the same way. Never a 500.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({ CALLBACK_IP_LIMIT_PER_MINUTE: '1000' });
});
afterAll(() => ctx?.close());

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

/** The body as raw JSON text, sent as it is (no route's body is that deep: the contract's types are left on purpose). */
const raw = (body: string) => ({
  body: invalidInput(body),
  headers: { 'content-type': 'application/json' },
  lang: 'en',
});
const ROUTES = [
  { path: authRoutes.login.path, send: (api: TRouteClient<Buffer>, body: string) => api.authRoutes.login(raw(body)) },
  {
    path: billingRoutes.tappayNotify.path,
    send: (api: TRouteClient<Buffer>, body: string) => api.billingRoutes.tappayNotify(raw(body)),
  },
  {
    path: shopeeRoutes.shopeePush.path,
    send: (api: TRouteClient<Buffer>, body: string) => api.shopeeRoutes.shopeePush(raw(body)),
  },
  {
    path: authRoutes.register.path,
    send: (api: TRouteClient<Buffer>, body: string) => api.authRoutes.register(raw(body)),
  },
];

describe('deeply nested JSON', () => {
  for (const { path: url, send } of ROUTES) {
    for (const [kind, body] of [
      ['arrays ×20,000', arrays(20_000)],
      ['objects ×20,000', objects(20_000)],
      ['arrays ×200,000', arrays(200_000)],
      ['objects inside a field ×5,000', `{"account":"a@b.c","password":"secret12","x":${objects(5_000)}}`],
    ] as const) {
      it(`${url}: ${kind} → 400 BODY_TOO_DEEP`, async () => {
        const res = await send(injectClient(ctx.app, { remoteAddress: '198.51.100.77' }), body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ error: { code: 'BODY_TOO_DEEP', params: { max: MAX_INPUT_DEPTH } } });
        expect(res.error().message).toContain(String(MAX_INPUT_DEPTH));
      });
    }
  }

  it('a body nested within the limit is still read (the guard finds a NUL at the bottom)', async () => {
    let value: unknown = 'x\u0000y';
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) value = { a: value };
    expect(unstorableField(value)).toBe(`${'a.'.repeat(MAX_INPUT_DEPTH - 1)}`.slice(0, -1));
    const res = await ctx.api.authRoutes.login({
      body: invalidInput({ account: 'a@b.c', password: 'secret12', x: value }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'INVALID_FIELD' } });
  });

  it('the guard walks a 1,000,000-deep value without recursion', () => {
    let value: unknown = 'ok';
    for (let i = 0; i < 1_000_000; i++) value = [value];
    expect(() => unstorableField(value)).toThrow(expect.objectContaining({ code: 'BODY_TOO_DEEP' }));
  });
});
