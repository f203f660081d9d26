import { MutationObserver, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { authRoutes, inboundRoutes } from '@wms/contracts';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuthHooks } from './client';
import { routeHead } from './route-head';
import {
  invalidateRoutes,
  readsOf,
  routeKey,
  routeMutation,
  routePage,
  routeQuery,
  useRoute,
  useRouteMutation,
} from './route-query';

/** A stand-in server: records each call and answers with `{ url }` (so a test sees which call it got back). */
function fakeServer(calls: string[]) {
  return vi.fn(async (url: string, init: RequestInit) => {
    calls.push(`${init.method} ${url}`);
    return new Response(JSON.stringify({ url }), { status: 200 });
  });
}

let calls: string[] = [];
beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', fakeServer(calls));
  setAuthHooks({ token: () => 'good', refresh: async () => false, expired: () => {} });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routeKey', () => {
  it('is the route (method and path) followed by its input, without the parts left undefined', () => {
    expect(routeKey(inboundRoutes.getReceipt)).toEqual(['GET /api/entry/:id/']);
    expect(routeKey(inboundRoutes.getReceipt, { params: { id: 'r1' }, query: undefined })).toEqual([
      'GET /api/entry/:id/',
      { params: { id: 'r1' } },
    ]);
    // Same path, other method: another operation, another key.
    expect(routeKey(inboundRoutes.deleteReceipt)).toEqual(['DELETE /api/entry/:id/']);
  });

  it('is the same for a route head and its contract (they share the cache)', () => {
    const head = routeHead<typeof authRoutes.profile>({
      method: authRoutes.profile.method,
      path: authRoutes.profile.path,
      auth: authRoutes.profile.auth,
      perm: authRoutes.profile.perm,
    });
    expect(routeKey(head, {})).toEqual(routeKey(authRoutes.profile, {}));
  });
});

describe('routeQuery', () => {
  it('calls the route with its input and caches the answer under routeKey', async () => {
    const qc = new QueryClient();
    const data = await qc.fetchQuery(routeQuery(inboundRoutes.getReceipt, { params: { id: 'r1' } }));
    expect(calls).toEqual(['GET /api/entry/r1/']);
    expect(data).toEqual({ url: '/api/entry/r1/' });
    expect(qc.getQueryData(routeKey(inboundRoutes.getReceipt, { params: { id: 'r1' } }))).toEqual(data);
  });

  it('waits without calling while the input is not known (null)', () => {
    const q = routeQuery(inboundRoutes.getReceipt, null);
    expect(q.queryKey).toEqual(['GET /api/entry/:id/']);
    expect(typeof q.queryFn).toBe('symbol'); // react-query's skipToken: the query is disabled
    expect(calls).toEqual([]);
  });
});

describe('invalidation by prefix', () => {
  async function seeded() {
    const qc = new QueryClient();
    const keys = {
      r1: routeKey(inboundRoutes.getReceipt, { params: { id: 'r1' } }),
      r2: routeKey(inboundRoutes.getReceipt, { params: { id: 'r2' }, query: undefined }),
      list: routeKey(inboundRoutes.listReceipts, { query: { page: 1 } }),
      page: [...routePage(inboundRoutes.listReceipts).queryKey, 'list', { page: 2 }],
      other: routeKey(authRoutes.profile, {}),
    };
    for (const key of Object.values(keys)) qc.setQueryData(key, { seeded: true });
    return { qc, keys };
  }
  const stale = (qc: QueryClient, keys: Record<string, readonly unknown[]>) =>
    Object.fromEntries(Object.entries(keys).map(([k, key]) => [k, qc.getQueryState(key)?.isInvalidated]));

  it('routeKey(route) hits every input of that route and nothing else', async () => {
    const { qc, keys } = await seeded();
    await invalidateRoutes(qc, [inboundRoutes.getReceipt]);
    expect(stale(qc, keys)).toEqual({ r1: true, r2: true, list: false, page: false, other: false });
  });

  it('routeKey(route, input) hits that input only; a list route hits the DataTable pages too', async () => {
    const { qc, keys } = await seeded();
    await invalidateRoutes(qc, [routeKey(inboundRoutes.getReceipt, { params: { id: 'r2' } })]);
    expect(stale(qc, keys)).toEqual({ r1: false, r2: true, list: false, page: false, other: false });
    await invalidateRoutes(qc, [inboundRoutes.listReceipts]);
    expect(stale(qc, keys)).toEqual({ r1: false, r2: true, list: true, page: true, other: false });
  });

  it('readsOf(table) is every GET of the table (a feature-wide refresh)', async () => {
    const { qc, keys } = await seeded();
    const reads = readsOf(inboundRoutes);
    expect(reads).toContain(inboundRoutes.getReceipt);
    expect(reads).not.toContain(inboundRoutes.deleteReceipt);
    await invalidateRoutes(qc, reads);
    expect(stale(qc, keys)).toEqual({ r1: true, r2: true, list: true, page: true, other: false });
  });

  it('a route mutation sends its input and refreshes what it names once it succeeded', async () => {
    const { qc, keys } = await seeded();
    const onSuccess = vi.fn(() => {
      // The caller's onSuccess runs after the refresh: what it shows next is already stale-marked.
      expect(qc.getQueryState(keys.r1)?.isInvalidated).toBe(true);
    });
    const m = new MutationObserver(
      qc,
      routeMutation(qc, inboundRoutes.deleteReceipt, {
        invalidates: (vars) => [inboundRoutes.listReceipts, routeKey(inboundRoutes.getReceipt, vars)],
        onSuccess,
      }),
    );
    await m.mutate({ params: { id: 'r1' } });
    expect(calls).toEqual(['DELETE /api/entry/r1/']);
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(stale(qc, keys)).toEqual({ r1: true, r2: false, list: true, page: true, other: false });
  });
});

describe('useRoute', () => {
  it('reads the cache entry of routeKey(route, input), typed by the route', () => {
    const qc = new QueryClient();
    qc.setQueryData(routeKey(inboundRoutes.getReceipt, { params: { id: 'r1' } }), { number: 'IN-001' });
    function Receipt() {
      const q = useRoute(inboundRoutes.getReceipt, { params: { id: 'r1' } });
      const no: string | undefined = q.data?.number;
      return createElement('span', null, no ?? 'none');
    }
    const html = renderToString(createElement(QueryClientProvider, { client: qc }, createElement(Receipt)));
    expect(html).toBe('<span>IN-001</span>');
  });

  it('types the input and the answer by the route (compile-time checks)', () => {
    // Never rendered: tsc checks these calls, vitest only loads them.
    const typed = () => {
      // @ts-expect-error getReceipt needs params.id
      useRoute(inboundRoutes.getReceipt, {});
      // @ts-expect-error the id is a string
      useRoute(inboundRoutes.getReceipt, { params: { id: 1 } });
      const q = useRoute(inboundRoutes.getReceipt, { params: { id: 'r1' } }, { select: (r) => r.lines.length });
      const n: number | undefined = q.data;
      // @ts-expect-error select's answer is a number, not a receipt
      const wrong: string | undefined = q.data;
      const del = useRouteMutation(inboundRoutes.deleteReceipt);
      // @ts-expect-error deleteReceipt needs params
      void del.mutateAsync({});
      return [n, wrong];
    };
    expect(typeof typed).toBe('function');
  });
});
