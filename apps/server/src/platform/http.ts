import {
  API_KEY_HEADER,
  apiScopeAllows,
  pickLanguage,
  type TApiScope,
  type TErrorCode,
  type TGrants,
  type TLanguage,
  type TRouteContract,
} from '@wms/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { bearerToken, type TActor, type TokenService } from './auth';
import { AppError } from './errors';
import { withoutPrices } from './permissions';
import { CallerGrants, requestGrants } from './request-grants';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's contract says `callback: true` (app.ts throttles such routes per client address). */
    callback?: boolean;
  }
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface TRouteCtx<C extends TRouteContract> {
  body: Infer<C['body']>;
  query: Infer<C['query']>;
  params: Infer<C['params']>;
  /** The authenticated caller; `SYSTEM`-less: public routes get null. */
  actor: C['auth'] extends 'public' ? null : TActor;
  lang: TLanguage;
  /** What a signed-in user may do (their seller role's grants, read from the database at this call); else null. */
  grants: TGrants | null;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Answer with another success status than the route's (e.g. 200 for an idempotent replay of a 201). */
  setStatus(status: number): void;
}

type TUserActor = Extract<TActor, { kind: 'user' }>;

export function asMember(actor: TActor): Extract<TActor, { kind: 'member' }> {
  if (actor.kind !== 'member') throw new AppError('FORBIDDEN');
  return actor;
}

export function asUser(actor: TActor): TUserActor {
  if (actor.kind !== 'user') throw new AppError('FORBIDDEN');
  return actor;
}

/** Who a partner API key belongs to (null: unknown or disabled); throws RATE_LIMITED when the key is over its limit. */
export type TApiKeyAuthenticator = (key: string, req: FastifyRequest) => Promise<TActor | null>;
const apiKeyAuthenticators = new WeakMap<TokenService, TApiKeyAuthenticator>();

/** Set how `apikey` routes find their caller (the integrations module, at registration). */
export function useApiKeyAuthenticator(tokens: TokenService, authenticator: TApiKeyAuthenticator): void {
  apiKeyAuthenticators.set(tokens, authenticator);
}

/** How a signed-in user's current grants are read (null: gone or deactivated). Set once by buildApp. */
export type TGrantLoader = (userId: string) => Promise<TGrants | null>;
const grantLoaders = new WeakMap<TokenService, TGrantLoader>();

export function useGrantLoader(tokens: TokenService, loader: TGrantLoader): void {
  grantLoaders.set(tokens, loader);
}

/** What a successful write call does before it answers (the replica's read-your-writes mark). Set once by buildApp. */
export type TWriteMarker = (actor: TActor) => Promise<void>;
const writeMarkers = new WeakMap<TokenService, TWriteMarker>();

export function useWriteMarker(tokens: TokenService, marker: TWriteMarker): void {
  writeMarkers.set(tokens, marker);
}

/** The key of an `apikey` call: `X-API-Key`, or `Authorization: Bearer <key>`. */
function apiKeyOf(req: FastifyRequest): string | null {
  const header = req.headers[API_KEY_HEADER];
  if (typeof header === 'string' && header.trim()) return header.trim();
  return bearerToken(req.headers.authorization);
}

type TCaller = { actor: TActor | null; caller: CallerGrants | null };

function grantLoader(tokens: TokenService): TGrantLoader {
  const loader = grantLoaders.get(tokens);
  if (!loader) throw new Error('route(): no grant loader set (buildApp calls useGrantLoader)');
  return loader;
}

/**
 * Who calls, and may they: the token (or API key) names the caller; for a user the database is asked at every call
 * (a deactivated user, or one of a deactivated company, is refused with 401 at once), then the route's declared
 * permission is checked against the user's grants (403 PERMISSION_DENIED) — here, or with the handler's first
 * statement when `deferred` (see CallerGrants).
 */
async function authorize(
  tokens: TokenService,
  req: FastifyRequest,
  contract: TRouteContract,
  deferred = false,
): Promise<TCaller> {
  const actor = await authenticate(tokens, req, contract.auth, contract.scope);
  if (actor?.kind !== 'user') return { actor, caller: null };
  const caller = new CallerGrants(actor.id, contract.perm, grantLoader(tokens));
  if (deferred) pendingCallers.set(req, caller);
  else await caller.check();
  return { actor, caller };
}

/** Signed-in callers of `first-statement` routes, until their request ends. */
const pendingCallers = new WeakMap<FastifyRequest, CallerGrants>();

/**
 * For the error handler: when a request failed before its caller's grants were checked (a `first-statement` route
 * whose input was refused, or whose handler failed before its first statement), the refusal those grants give — it is
 * the answer, as it would have been before the input was looked at. Null when the caller may call the route.
 */
export async function pendingRefusal(req: FastifyRequest): Promise<AppError | null> {
  const caller = pendingCallers.get(req);
  if (!caller) return null;
  try {
    await caller.check();
    return null;
  } catch (err) {
    return err instanceof AppError ? err : null;
  }
}

async function authenticate(
  tokens: TokenService,
  req: FastifyRequest,
  auth: TRouteContract['auth'],
  scope?: TApiScope,
): Promise<TActor | null> {
  if (auth === 'public') return null;
  if (auth === 'apikey') {
    const key = apiKeyOf(req);
    const authenticator = apiKeyAuthenticators.get(tokens);
    if (!key || !authenticator) throw new AppError('API_KEY_INVALID');
    const actor = await authenticator(key, req);
    if (!actor) throw new AppError('API_KEY_INVALID');
    // The key's scope (read / orders / full) must cover what the route does.
    if (actor.kind === 'api' && scope && !apiScopeAllows(actor.scope, scope))
      throw new AppError('API_SCOPE_DENIED', { scope });
    return actor;
  }
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError('UNAUTHENTICATED');
  if (auth === 'member') {
    const claims = await tokens.verify(token, 'member_access');
    if (!claims.sid || !claims.cid) throw new AppError('TOKEN_INVALID');
    return { kind: 'member', id: claims.sub, storeId: claims.sid, customerId: claims.cid };
  }
  const claims = await tokens.verify(token, 'access');
  if (claims.role !== 'CUSTOMER' && claims.role !== 'EMPLOYEE') throw new AppError('TOKEN_INVALID');
  const actor: TUserActor = { kind: 'user', id: claims.sub, role: claims.role, customerId: claims.cid ?? null };
  if (auth === 'customer' && (actor.role === 'EMPLOYEE' || !actor.customerId)) throw new AppError('FORBIDDEN');
  if (auth === 'employee' && actor.role !== 'EMPLOYEE') throw new AppError('FORBIDDEN');
  return actor;
}

/**
 * Register one route of the contracts' table: validation from the contract, the auth guard from `contract.auth` and
 * the permission guard from `contract.perm` (the one place a route says what it needs), then the handler (which
 * calls one service function). Routes stay thin.
 */
export function route<C extends TRouteContract>(
  app: FastifyInstance,
  tokens: TokenService,
  contract: C,
  handler: (ctx: TRouteCtx<C>) => Promise<Infer<C['response']> | z.input<C['response']>>,
  opts: {
    status?: number;
    bodyLimit?: number;
    /**
     * 'json': answer with JSON.stringify instead of encoding through the contract's zod schema — for a hot list whose
     * rows SQL already gives in the contract's shape, where the zod pass cost more CPU than the rest of the handler.
     * Such a route needs a test that compares its rows with a zod-encoded answer of the same records.
     */
    serialize?: 'contract' | 'json';
    /**
     * 'first-statement': a signed-in user's grants are read with the handler's first statement instead of in a round
     * trip of their own before it (the hot reads and the packing scan; see CallerGrants). The handler must send
     * nothing before that statement that a refusal could not undo (reads, or writes in the transaction that statement
     * opens), and must not read `ctx.grants` before it. A handler that never reads them has them read after it; a
     * refusal replaces its answer, and the error of a request refused earlier (invalid input included).
     */
    grants?: 'before' | 'first-statement';
  } = {},
): void {
  const schema: Record<string, unknown> = {
    response: { 200: contract.response, [opts.status ?? 200]: contract.response },
  };
  if (contract.body) schema.body = contract.body;
  if (contract.query) schema.querystring = contract.query;
  if (contract.params) schema.params = contract.params;
  const deferred = opts.grants === 'first-statement';
  const callers = new WeakMap<FastifyRequest, TCaller>();
  app.route({
    method: contract.method,
    url: contract.path,
    schema,
    bodyLimit: opts.bodyLimit,
    config: { callback: contract.callback === true },
    ...(opts.serialize === 'json' ? { serializerCompiler: () => (data: unknown) => JSON.stringify(data) } : {}),
    // A signed-in caller is checked before the body is read or validated: a refused caller learns nothing of the
    // input. Partner API keys stay checked after validation (the key's use is recorded, and limited, per call).
    onRequest: async (req) => {
      if (contract.auth !== 'apikey') callers.set(req, await authorize(tokens, req, contract, deferred));
    },
    handler: async (req, reply) => {
      const { actor, caller } = callers.get(req) ?? (await authorize(tokens, req, contract));
      let status = opts.status ?? 200;
      const call = () =>
        handler({
          body: req.body as Infer<C['body']>,
          query: req.query as Infer<C['query']>,
          params: req.params as Infer<C['params']>,
          actor: actor as TRouteCtx<C>['actor'],
          lang: pickLanguage(req.headers['accept-language']),
          get grants() {
            if (caller && !caller.grants) throw new Error('route(): ctx.grants read before the first statement');
            return caller?.grants ?? null;
          },
          req,
          reply,
          setStatus: (s) => {
            status = s;
          },
        });
      // The caller stays known to everything the handler starts (Excel writers hide prices by the grants).
      const result = await (caller ? requestGrants.run(caller, call) : call());
      // Checked by now, unless a first-statement handler never read them: then here, before anything is answered.
      const grants = caller ? await caller.check() : null;
      // A write answered: its caller's next read on the replica waits until the replica has it (platform/replica.ts).
      const marker = writeMarkers.get(tokens);
      if (marker && actor && contract.method !== 'GET') await marker(actor);
      reply.status(status);
      // Prices and costs are left out of every answer to a user whose role does not show them (warehouse staff).
      return grants && !grants.prices ? withoutPrices(result) : result;
    },
  });
}

/** True for text PostgreSQL cannot store: a NUL character, or a UTF-16 surrogate without its pair. */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * How deep a request's input may nest (objects and arrays inside each other). Our contracts need a handful of
 * levels; a deeper body is refused with 400 BODY_TOO_DEEP before anything walks it.
 */
export const MAX_INPUT_DEPTH = 64;

/** Plain parsed JSON/query objects only: uploaded files (Buffers, streams) are checked by their parsers. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false;
  // (The query parser's objects have a prototype-less prototype.)
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || (proto !== null && Object.getPrototypeOf(proto) === null);
}

/**
 * The dotted name of the first string (or object key) in `value` PostgreSQL cannot store, or null. Walks with a stack
 * of its own, not recursion (a body of any depth cannot overflow the call stack), and throws 400 BODY_TOO_DEEP for
 * input nested deeper than MAX_INPUT_DEPTH.
 */
export function unstorableField(value: unknown, field = ''): string | null {
  type TNode = { value: unknown; parent: TNode | null; key: string; depth: number; objectKey?: boolean };
  const nameOf = (node: TNode): string => {
    const keys: string[] = [];
    for (let n: TNode | null = node; n; n = n.parent) if (n.key) keys.push(n.key);
    return keys.reverse().join('.');
  };
  const stack: TNode[] = [{ value, parent: null, key: field, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const item = node.value;
    if (node.objectKey && isUnstorableText(node.key)) return nameOf(node);
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return nameOf(node) || 'body';
      continue;
    }
    const isArray = Array.isArray(item);
    if (!isArray && !isPlainObject(item)) continue;
    if (node.depth >= MAX_INPUT_DEPTH) throw new AppError('BODY_TOO_DEEP', { max: MAX_INPUT_DEPTH });
    const children: TNode[] = [];
    if (isArray) {
      for (let i = 0; i < item.length; i++)
        children.push({ value: item[i], parent: node, key: String(i), depth: node.depth + 1 });
    } else {
      for (const [key, child] of Object.entries(item))
        children.push({ value: child, parent: node, key, depth: node.depth + 1, objectKey: true });
    }
    // Depth first, in document order: the first child is popped first.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

/**
 * One gate for every route (contract routes, the partner API, anything registered later): text PostgreSQL cannot
 * store is refused with 400 INVALID_FIELD naming the field, before validation and before any handler runs.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      const field = unstorableField(part);
      if (field !== null) throw new AppError('INVALID_FIELD', { field });
    }
  });
}

export function errorCodeOf(err: unknown): TErrorCode | undefined {
  return err instanceof AppError ? err.code : undefined;
}
