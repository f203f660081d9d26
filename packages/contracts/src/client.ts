/**
 * A typed client built from the route tables: `client.<table>.<name>({ params, query, body })` calls the route the
 * contract declares and types the answer with the contract's response. One client, many transports: the server's
 * tests send through `app.inject`, e2e seeding and the bench through HTTP. No caller writes an `/api/…` path.
 *
 * Imported as `@wms/contracts/client` (not from the index: it reads every route table the index exports).
 */
import type { z } from 'zod';
import type { TErrorBody } from './errors';
import * as contracts from './index';
import type { TRouteContract } from './routes';

type TAll = typeof contracts;
type TIsTable<V> = V extends Record<string, TRouteContract> ? (V extends readonly unknown[] ? false : true) : false;

/** Every route table `@wms/contracts` exports, by its export name (`inboundRoutes`, …): the operationId's first half. */
export type TRouteTables = { [K in keyof TAll as TIsTable<TAll[K]> extends true ? K : never]: TAll[K] };

/** A part of the input (`params`, `query`, `body`): required when its schema has a required field, else optional. */
type TPart<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? object extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What every call may add: who calls (a bearer token or an API key), in which language, any other header. */
export interface TCallOptions {
  token?: string;
  apiKey?: string;
  lang?: string;
  headers?: Record<string, string>;
  /** Give up after this many milliseconds (HTTP transports; the call rejects with a `TimeoutError`). */
  timeoutMs?: number;
}

export type TRouteInput<R> = TPart<R, 'params'> & TPart<R, 'query'> & TPart<R, 'body'> & TCallOptions;

/** The answer of one call: the status, the headers, and the body typed by the contract (or as the error body). */
export interface TRouteResponse<T, TBytes = Uint8Array> {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body as text. */
  body: string;
  /** The body as text (light-my-request's name). */
  payload: string;
  /** The body as bytes (PDF, xlsx, zip downloads). */
  rawPayload: TBytes;
  /** The body parsed as the contract's response. Meaningful on a 2xx answer. */
  json(): T;
  /** The error body of a failed call (`{ code, message, params }`). */
  error(): TErrorBody['error'];
}

type TNoInput<R> = object extends TRouteInput<R> ? true : false;
type TRouteCall<R, TBytes> =
  TNoInput<R> extends true
    ? (input?: TRouteInput<R>) => Promise<TRouteResponse<TOutput<R>, TBytes>>
    : (input: TRouteInput<R>) => Promise<TRouteResponse<TOutput<R>, TBytes>>;
type TOutput<R> = R extends { response: infer S extends z.ZodType } ? z.output<S> : never;

/** `TBytes`: what the transport gives as the raw body (`Buffer` under `app.inject`). */
export type TRouteClient<TBytes = Uint8Array> = {
  [T in keyof TRouteTables]: { [N in keyof TRouteTables[T]]: TRouteCall<TRouteTables[T][N], TBytes> };
};

/** One request as the transport sends it: the path is filled in, the query still an object. */
export interface TClientRequest {
  method: TRouteContract['method'];
  url: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  headers: Record<string, string>;
  timeoutMs?: number;
}
export interface TClientAnswer<TBytes = Uint8Array> {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: TBytes;
}
export type TClientTransport<TBytes> = (request: TClientRequest) => Promise<TClientAnswer<TBytes>>;

function isRoute(value: unknown): value is TRouteContract {
  const r = value as Partial<TRouteContract> | null;
  return !!r && typeof r.path === 'string' && typeof r.method === 'string' && typeof r.auth === 'string';
}

/** `/api/entry/:id/` with `{ id: 'r1' }` → `/api/entry/r1/`. A missing parameter is a mistake of the caller. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null) throw new Error(`${path}: path parameter "${name}" missing`);
    return encodeURIComponent(String(v));
  });
}

/** Query values as the server reads them from a URL: strings, arrays repeated, undefined left out. */
export function queryStrings(
  query: Record<string, unknown> | undefined,
): Record<string, string | string[]> | undefined {
  if (!query) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return out;
}

const decoder = new TextDecoder();

export function createRouteClient<TBytes extends Uint8Array = Uint8Array>(
  send: TClientTransport<TBytes>,
): TRouteClient<TBytes> {
  const client: Record<string, Record<string, unknown>> = {};
  for (const [table, value] of Object.entries(contracts)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [name, route] of Object.entries(value as Record<string, unknown>)) {
      if (!isRoute(route)) continue;
      client[table] ??= {};
      client[table]![name] = async (input: TRouteInput<unknown> & Record<string, unknown> = {}) => {
        const headers: Record<string, string> = { ...(input.headers ?? {}) };
        if (input.token) headers.authorization = `Bearer ${input.token}`;
        if (input.apiKey) headers['x-api-key'] = input.apiKey;
        if (input.lang) headers['accept-language'] = input.lang;
        const answer = await send({
          method: route.method,
          url: fillPath(route.path, input.params as Record<string, unknown> | undefined),
          query: queryStrings(input.query as Record<string, unknown> | undefined),
          // A route with a body whose fields are all optional may be called without one (its type allows it): the
          // empty object is sent, which is what the server validates.
          body: input.body === undefined && route.body ? {} : input.body,
          headers,
          ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
        });
        const text = () => decoder.decode(answer.rawPayload);
        return {
          statusCode: answer.statusCode,
          headers: answer.headers,
          rawPayload: answer.rawPayload,
          get body() {
            return text();
          },
          get payload() {
            return text();
          },
          json: () => JSON.parse(text()),
          error: () => (JSON.parse(text()) as TErrorBody).error,
        } satisfies TRouteResponse<unknown, TBytes>;
      };
    }
  }
  return client as unknown as TRouteClient<TBytes>;
}

/**
 * The typed client over HTTP (`fetch`) against a running server at `baseUrl` (the bench, the crash tests that start
 * the real server as a process, e2e seeding).
 */
export function createFetchClient(baseUrl: string): TRouteClient {
  return createRouteClient(async (req) => {
    const url = new URL(req.url, baseUrl);
    for (const [k, v] of Object.entries(req.query ?? {}))
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
    const res = await fetch(url, {
      method: req.method,
      headers: { ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      ...(req.timeoutMs ? { signal: AbortSignal.timeout(req.timeoutMs) } : {}),
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { statusCode: res.status, headers, rawPayload: new Uint8Array(await res.arrayBuffer()) };
  });
}

/**
 * An input the contract forbids, sent on purpose (a test of the server's own validation): the one place a caller
 * steps outside the contract's types, and it says so.
 */
export function invalidInput<T = never>(value: unknown): T {
  return value as T;
}
