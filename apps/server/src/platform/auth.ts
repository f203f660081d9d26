import { createHmac, randomUUID, timingSafeEqual, webcrypto } from 'node:crypto';
import { API_SCOPES, type TApiScope, type TRole, ZRole } from '@wms/contracts';
import { SignJWT } from 'jose';
import { z } from 'zod';
import { AppError } from './errors';

/** Who is calling. `customerId` is the tenant every seller-owned query is scoped by. */
export type TActor =
  | { kind: 'user'; id: string; role: TRole; customerId: string | null }
  | { kind: 'member'; id: string; storeId: string; customerId: string }
  /** A seller's own system calling the partner API with a key: `id` is the API setting. */
  | { kind: 'api'; id: string; customerId: string; scope: TApiScope }
  | { kind: 'system'; id: null; customerId: string | null };

export const SYSTEM_ACTOR: TActor = { kind: 'system', id: null, customerId: null };

/** The actor as a job payload carries it (who queued the work; audit rows of the job name them). */
export const ZActor: z.ZodType<TActor> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), role: ZRole, customerId: z.string().nullable() }),
  z.object({ kind: z.literal('member'), id: z.string(), storeId: z.string(), customerId: z.string() }),
  z.object({
    kind: z.literal('api'),
    id: z.string(),
    customerId: z.string(),
    // Payloads queued before keys had scopes carry none: such keys were full.
    scope: z.enum(API_SCOPES).default('full'),
  }),
  z.object({ kind: z.literal('system'), id: z.null(), customerId: z.string().nullable() }),
]);
/** The tenant of a seller-owned use case. Throws when the caller has none (never happens behind a `customer` guard). */
export function tenantOf(actor: TActor): string {
  if (!actor.customerId) throw new AppError('FORBIDDEN');
  return actor.customerId;
}

type TTokenType = 'access' | 'refresh' | 'member_access' | 'member_refresh';

export interface TTokenClaims {
  sub: string;
  typ: TTokenType;
  role?: TRole;
  cid?: string | null;
  sid?: string;
  fam?: string;
  jti: string;
  exp: number;
  iat: number;
}

const ALG = 'HS256';

export class TokenService {
  /** The HMAC key for jose's signing, imported once. */
  private readonly signingKey: Promise<webcrypto.CryptoKey>;

  constructor(
    private readonly secret: Uint8Array,
    readonly accessTtl: number,
    readonly refreshTtl: number,
  ) {
    this.signingKey = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  }

  async sign(
    claims: Omit<TTokenClaims, 'exp' | 'iat' | 'jti'> & { jti?: string },
    ttlSeconds: number,
  ): Promise<string> {
    const { sub, jti, ...rest } = claims;
    return new SignJWT({ ...rest })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(sub)
      .setJti(jti ?? randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(await this.signingKey);
  }

  /**
   * Verify signature (HS256 only: `alg: none` and every other algorithm are refused), expiry and token type.
   * Verified with node:crypto's HMAC, synchronously: WebCrypto's asynchronous HMAC job (what jose's `jwtVerify` uses)
   * cost about a millisecond of a loaded event loop per request — the largest cost of an authenticated read.
   */
  async verify(token: string, typ: TTokenType): Promise<TTokenClaims> {
    const payload = verifyHs256(token, this.secret);
    if (!payload || payload.typ !== typ || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') {
      throw new AppError('TOKEN_INVALID');
    }
    return payload as unknown as TTokenClaims;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function jsonPart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A compact JWS signed with HMAC-SHA-256 by `secret` whose `exp` is in the future (and `nbf`, if any, not): its
 * payload, else null. The header must say `alg: HS256` and nothing critical (`crit`); the signature is compared in
 * constant time.
 */
export function verifyHs256(
  token: string,
  secret: Uint8Array,
  now = Date.now() / 1000,
): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => p.length > 0 && BASE64URL.test(p))) return null;
  const [head, body, signature] = parts as [string, string, string];
  const header = jsonPart(head);
  if (!header || header.alg !== ALG || header.crit !== undefined || header.b64 !== undefined) return null;
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = jsonPart(body);
  if (!payload || typeof payload.exp !== 'number' || !(payload.exp > now)) return null;
  if (payload.nbf !== undefined && !(typeof payload.nbf === 'number' && payload.nbf <= now)) return null;
  return payload;
}

/** Parse `Authorization: Bearer …`. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1]! : null;
}
