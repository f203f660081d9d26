import {
  type QueryClient,
  skipToken,
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { TRouteContract } from '@wms/contracts';
import type { TPageResult, TTableQuery } from '../table/list-query';
import { apiCall, type TCallInput, type TResponseOf } from './client';

/**
 * The data layer from the contracts' route tables: a read is `useRoute(route, input)`, a write
 * `useRouteMutation(route, { invalidates })`, and the cache key of every read is `routeKey(route, input)`.
 *
 * A key is the route's identity followed by its input: `['GET /api/inbound/receipts/:id/', { params: { id } }]`.
 * The identity is the operation id's runtime twin: a route object does not carry its table and name (`inboundRoutes.
 * getReceipt`, the OpenAPI operationId), and looking them up would bring every contracts table into the page; the
 * method and path are unique across the tables in the same way (the server registers each pair once, the OpenAPI
 * document keys operations by them) and a route head (route-head.ts) has them too, so a head and its contract share
 * their cache. react-query matches keys by prefix, and an input object partially: `routeKey(route)` is every input of
 * the route, `routeKey(route, { params: { id } })` every query of that row.
 */
export function routeId(route: Pick<TRouteContract, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export type TRouteKey = readonly [string] | readonly [string, object];

/** `[routeId]` (every input of the route) or `[routeId, input]`; input parts left undefined are dropped. */
export function routeKey<C extends TRouteContract>(route: C, input?: Partial<TCallInput<C>>): TRouteKey {
  if (input === undefined) return [routeId(route)] as const;
  const parts: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) if (v !== undefined) parts[k] = v;
  return [routeId(route), parts] as const;
}

type TQueryOptions<C extends TRouteContract, TData> = Omit<
  UseQueryOptions<TResponseOf<C>, Error, TData, TRouteKey>,
  'queryKey' | 'queryFn'
>;

/**
 * The query of one route and input (for `useQuery`, `qc.fetchQuery`, `qc.ensureQueryData`). `input` null: not yet
 * (a detail before its id is known): the query waits (react-query's skipToken) instead of calling with a hole.
 */
export function routeQuery<C extends TRouteContract, TData = TResponseOf<C>>(
  route: C,
  input: TCallInput<C> | null,
  options: TQueryOptions<C, TData> = {},
) {
  const query: UseQueryOptions<TResponseOf<C>, Error, TData, TRouteKey> = {
    ...options,
    queryKey: routeKey(route, input ?? undefined),
    queryFn: input === null ? skipToken : ({ signal }) => apiCall(route, input, { signal }),
  };
  return query;
}

/** Read one route: react-query's result, typed by the route's response (or by `select`). See routeQuery. */
export function useRoute<C extends TRouteContract, TData = TResponseOf<C>>(
  route: C,
  input: TCallInput<C> | null,
  options?: TQueryOptions<C, TData>,
) {
  return useQuery(routeQuery(route, input, options));
}

/** What a write refreshes: routes (every input of each) or keys (a prefix). */
export type TInvalidates = ReadonlyArray<TRouteContract | readonly unknown[]>;

/** Mark the reads of the given routes (every input) or key prefixes stale; the screens showing them refetch. */
export function invalidateRoutes(qc: QueryClient, targets: TInvalidates): Promise<void> {
  return Promise.all(
    targets.map((t) => qc.invalidateQueries({ queryKey: Array.isArray(t) ? t : routeKey(t as TRouteContract) })),
  ).then(() => undefined);
}

/** Every GET route of the given tables: what "refresh this feature's screens" means after one of its writes. */
export function readsOf(...tables: Array<Record<string, TRouteContract>>): TRouteContract[] {
  return tables.flatMap((t) => Object.values(t).filter((route) => route.method === 'GET'));
}

type TMutationOptions<C extends TRouteContract, TVars, TContext> = Omit<
  UseMutationOptions<TResponseOf<C>, Error, TVars, TContext>,
  'mutationFn'
> & {
  /** Refreshed after a success (before the caller's onSuccess resolves, so a closing dialog sees fresh data). */
  invalidates?: TInvalidates | ((vars: TVars, data: TResponseOf<C>) => TInvalidates);
};

function withInvalidation<C extends TRouteContract, TVars, TContext>(
  qc: QueryClient,
  options: TMutationOptions<C, TVars, TContext>,
): Omit<UseMutationOptions<TResponseOf<C>, Error, TVars, TContext>, 'mutationFn'> {
  const { invalidates, onSuccess, ...rest } = options;
  return {
    ...rest,
    onSuccess: async (data, vars, onMutateResult, context) => {
      const targets = typeof invalidates === 'function' ? invalidates(vars, data) : invalidates;
      if (targets?.length) await invalidateRoutes(qc, targets);
      await onSuccess?.(data, vars, onMutateResult, context);
    },
  };
}

/** The mutation of one route (for useMutation, or a MutationObserver): `mutate(input)` resolves with its response. */
export function routeMutation<C extends TRouteContract, TContext = unknown>(
  qc: QueryClient,
  route: C,
  options: TMutationOptions<C, TCallInput<C>, TContext> = {},
): UseMutationOptions<TResponseOf<C>, Error, TCallInput<C>, TContext> {
  return { ...withInvalidation(qc, options), mutationFn: (input) => apiCall(route, input) };
}

/** Write through one route: `mutate(input)` with the route's input, resolving with its response. */
export function useRouteMutation<C extends TRouteContract, TContext = unknown>(
  route: C,
  options: TMutationOptions<C, TCallInput<C>, TContext> = {},
) {
  return useMutation(routeMutation(useQueryClient(), route, options));
}

type TBodyOf<C extends TRouteContract> = TCallInput<C> extends { body: infer B } ? B : never;

/**
 * The save of a create/edit dialog: `{ id, body }` updates row `id` (`PATCH …/:id/`), `{ body }` creates one.
 */
export function useSaveRoute<
  TCreate extends TRouteContract & { body: NonNullable<TRouteContract['body']> },
  TUpdate extends TRouteContract & { body: NonNullable<TRouteContract['body']> },
>(create: TCreate, update: TUpdate, options: { invalidates?: TInvalidates } = {}) {
  const qc = useQueryClient();
  type TVars = { id?: string; body: TBodyOf<TCreate> | TBodyOf<TUpdate> };
  return useMutation<TResponseOf<TCreate> | TResponseOf<TUpdate>, Error, TVars>({
    mutationFn: (a) =>
      a.id
        ? apiCall(update, { params: { id: a.id }, body: a.body } as unknown as TCallInput<TUpdate>)
        : apiCall(create, { body: a.body } as unknown as TCallInput<TCreate>),
    onSuccess: () => (options.invalidates ? invalidateRoutes(qc, options.invalidates) : undefined),
  });
}

/**
 * A DataTable's list from a paged route: `<DataTable {...routePage(r.listReceipts)} …/>`. The table's query (page,
 * ordering, search, filters; through `toQuery` when the form's values need shaping) goes into the route's query over
 * `base`'s; its key sits under routeKey(route, base), so invalidating the route refreshes the table.
 */
export function routePage<C extends TRouteContract, T = TResponseOf<C> extends TPageResult<infer R> ? R : never>(
  route: C,
  base?: Partial<TCallInput<C>>,
  toQuery: (query: TTableQuery) => TTableQuery = (q) => q,
): { queryKey: readonly unknown[]; fetchPage: (query: TTableQuery, signal?: AbortSignal) => Promise<TPageResult<T>> } {
  const b = (base ?? {}) as { query?: object };
  return {
    queryKey: routeKey(route, base ?? {}),
    fetchPage: (query, signal) =>
      apiCall(route, { ...b, query: { ...b.query, ...toQuery(query) } } as unknown as TCallInput<C>, {
        signal,
      }) as Promise<TPageResult<T>>,
  };
}
