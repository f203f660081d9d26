import type { TErrorBody, TErrorCode, TRouteContract } from '@wms/contracts';
import type { z } from 'zod';
import { getLanguage } from '../preferences/preferences';

type In<T> = T extends z.ZodType ? z.input<T> : never;
export type TResponseOf<C extends TRouteContract> = z.output<C['response']>;

/** What a call of contract C needs: `body`, `params` and `query` exactly as the contract declares them. */
export type TCallInput<C extends TRouteContract> = (C['body'] extends z.ZodType
  ? { body: In<C['body']> }
  : { body?: undefined }) &
  (C['params'] extends z.ZodType ? { params: In<C['params']> } : { params?: undefined }) &
  (C['query'] extends z.ZodType ? { query?: Partial<In<C['query']>> } : { query?: undefined });

/** A failed call: the server's catalogue code (or NETWORK_ERROR / HTTP_<status>) with its params. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: TErrorCode | 'NETWORK_ERROR' | `HTTP_${number}`,
    readonly params: Record<string, unknown>,
    serverMessage: string,
  ) {
    super(serverMessage);
    this.name = 'ApiError';
  }
}

/** How the client authenticates; wired in shared/auth/session.ts so this module stays free of session state. */
export interface TAuthHooks {
  /** Bearer token for a route's auth kind, or null. */
  token(auth: TRouteContract['auth']): string | null;
  /** Called after a 401: refresh once; true when the call may be retried. */
  refresh(auth: TRouteContract['auth']): Promise<boolean>;
  /** Called when the session is dead (refresh refused, or still 401 after it). */
  expired(auth: TRouteContract['auth']): void;
}

let hooks: TAuthHooks = { token: () => null, refresh: async () => false, expired: () => {} };

export function setAuthHooks(next: TAuthHooks): void {
  hooks = next;
}

/** `/api/x/:id/` + { id } → `/api/x/42/`, with `?query` (empty values dropped). */
export function buildUrl(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const filled = path.replace(/:([a-zA-Z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    search.set(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

/** The 401 codes that mean the session (no token, or one that is expired, revoked or bad); `HTTP_401`: no JSON body. */
const SESSION_ERRORS = new Set(['UNAUTHENTICATED', 'TOKEN_INVALID', 'HTTP_401']);

async function toApiError(res: Response): Promise<ApiError> {
  let body: Partial<TErrorBody> | null = null;
  try {
    body = (await res.json()) as Partial<TErrorBody>;
  } catch {
    body = null;
  }
  const err = body?.error;
  if (err?.code) return new ApiError(res.status, err.code, err.params ?? {}, err.message ?? err.code);
  return new ApiError(res.status, `HTTP_${res.status}`, {}, res.statusText);
}

async function send(
  route: TRouteContract,
  url: string,
  body: unknown,
  accept: string,
  signal?: AbortSignal,
): Promise<Response> {
  const headers: Record<string, string> = { 'accept-language': getLanguage(), accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = route.auth === 'public' ? null : hooks.token(route.auth);
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(url, {
      method: route.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(0, 'NETWORK_ERROR', {}, e instanceof Error ? e.message : String(e));
  }
}

/**
 * Send one route of the contracts' table and hand back its successful response unread (apiCall reads JSON, file
 * downloads read bytes). Authenticated routes carry the bearer token of their session kind; a 401 triggers one
 * refresh and one retry, and a second failure ends the session. A failed answer throws ApiError.
 */
export async function sendRoute<C extends TRouteContract>(
  route: C,
  input: TCallInput<C>,
  opts: { signal?: AbortSignal; accept?: string } = {},
): Promise<Response> {
  const { body, params, query } = input as { body?: unknown; params?: Record<string, unknown>; query?: object };
  const url = buildUrl(route.path, params, query as Record<string, unknown> | undefined);
  const accept = opts.accept ?? 'application/json';
  let res = await send(route, url, body, accept, opts.signal);
  if (res.status === 401 && route.auth !== 'public') {
    // Only a 401 about the session itself refreshes it (or ends it). Another 401 of a signed-in call (a wrong
    // two-step code on /two-factor) is that call's answer: the session stays.
    const answer = await toApiError(res.clone());
    if (!SESSION_ERRORS.has(answer.code)) throw answer;
    if (await hooks.refresh(route.auth)) res = await send(route, url, body, accept, opts.signal);
    if (res.status === 401) {
      const error = await toApiError(res);
      hooks.expired(route.auth);
      throw error;
    }
  }
  if (!res.ok) throw await toApiError(res);
  return res;
}

/** Call one route of the contracts' table (see sendRoute) and read its JSON answer. */
export async function apiCall<C extends TRouteContract>(
  route: C,
  input: TCallInput<C>,
  opts: { signal?: AbortSignal } = {},
): Promise<TResponseOf<C>> {
  const res = await sendRoute(route, input, opts);
  if (res.status === 204) return undefined as TResponseOf<C>;
  return (await res.json()) as TResponseOf<C>;
}

/** POST a refresh token without the 401 machinery (used by the token stores themselves). */
export async function exchangeRefreshToken(
  path: string,
  refresh: string,
): Promise<{ access: string; refresh: string } | null> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': getLanguage() },
      body: JSON.stringify({ refresh }),
    });
  } catch (e) {
    throw new ApiError(0, 'NETWORK_ERROR', {}, e instanceof Error ? e.message : String(e));
  }
  if (res.ok) return (await res.json()) as { access: string; refresh: string };
  if (res.status >= 400 && res.status < 500) return null;
  throw await toApiError(res);
}
