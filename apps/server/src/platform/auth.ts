import { randomUUID } from 'node:crypto';
import { type TRole, ZRole } from '@wms/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { AppError } from './errors';

/** Who is calling. `customerId` is the tenant every seller-owned query is scoped by. */
export type TActor =
  | { kind: 'user'; id: string; role: TRole; customerId: string | null }
  | { kind: 'member'; id: string; storeId: string; customerId: string }
  /** A seller's own system calling the partner API with a key: `id` is the API setting. */
  | { kind: 'api'; id: string; customerId: string }
  | { kind: 'system'; id: null; customerId: string | null };

export const SYSTEM_ACTOR: TActor = { kind: 'system', id: null, customerId: null };

/** The actor as a job payload carries it (who queued the work; audit rows of the job name them). */
export const ZActor: z.ZodType<TActor> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), role: ZRole, customerId: z.string().nullable() }),
  z.object({ kind: z.literal('member'), id: z.string(), storeId: z.string(), customerId: z.string() }),
  z.object({ kind: z.literal('api'), id: z.string(), customerId: z.string() }),
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
/** How many verified tokens a TokenService remembers (a token is a few hundred bytes). */
const VERIFIED_MAX = 10_000;

export class TokenService {
  /**
   * Tokens already verified, by their exact text: the same string always verifies the same way, so a token seen again
   * skips the HMAC (webcrypto, asynchronous: the largest piece of a list call's CPU after the database). Its expiry
   * and type are checked again at every use; whether the user may still call is the database's answer at every call.
   */
  private readonly verified = new Map<string, Readonly<TTokenClaims>>();

  constructor(
    private readonly secret: Uint8Array,
    readonly accessTtl: number,
    readonly refreshTtl: number,
  ) {}

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
      .sign(this.secret);
  }

  /** Verify signature (HS256 only: `alg: none` and others are refused), expiry and token type. */
  async verify(token: string, typ: TTokenType): Promise<TTokenClaims> {
    const known = this.verified.get(token);
    if (known && known.exp * 1000 > Date.now()) {
      if (known.typ !== typ) throw new AppError('TOKEN_INVALID');
      return known;
    }
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: [ALG] });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
        throw new AppError('TOKEN_INVALID');
      }
      const claims = Object.freeze(payload as unknown as TTokenClaims);
      // Oldest first out (a Map keeps insertion order); an expired entry found above is simply replaced.
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
      if (claims.typ !== typ) throw new AppError('TOKEN_INVALID');
      return claims;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof joseErrors.JOSEError) throw new AppError('TOKEN_INVALID');
      throw new AppError('TOKEN_INVALID');
    }
  }
}

/** Parse `Authorization: Bearer …`. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1]! : null;
}
