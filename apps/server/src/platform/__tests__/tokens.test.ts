import { createHmac } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService, verifyHs256 } from '../auth';
import { AppError } from '../errors';

const secret = new TextEncoder().encode('s'.repeat(64));
const other = new TextEncoder().encode('o'.repeat(64));
const now = () => Math.floor(Date.now() / 1000);

async function signed(opts: { alg?: string; key?: Uint8Array; exp?: number; nbf?: number; crit?: boolean } = {}) {
  const jwt = new SignJWT({ typ: 'access' })
    .setProtectedHeader({
      alg: opts.alg ?? 'HS256',
      typ: 'JWT',
      ...(opts.crit ? { crit: ['exp'] as string[], exp: 1 } : {}),
    })
    .setSubject('user-1')
    .setJti('jti-1')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? now() + 60);
  if (opts.nbf !== undefined) jwt.setNotBefore(opts.nbf);
  return jwt.sign(opts.key ?? secret);
}

/** A token whose payload was swapped after signing (same header and signature). */
function withPayload(token: string, payload: Record<string, unknown>): string {
  const [head, , signature] = token.split('.');
  return `${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
}

describe('verifyHs256 (the access-token check of every request)', () => {
  it('accepts what jose signed with the same secret, and returns its claims', async () => {
    const claims = verifyHs256(await signed(), secret);
    expect(claims).toMatchObject({ sub: 'user-1', jti: 'jti-1', typ: 'access' });
  });

  it('refuses another secret, a changed payload, a changed signature', async () => {
    const token = await signed();
    expect(verifyHs256(await signed({ key: other }), secret)).toBeNull();
    expect(
      verifyHs256(withPayload(token, { sub: 'admin', typ: 'access', jti: 'x', exp: now() + 60 }), secret),
    ).toBeNull();
    // A character inside the signature (the last one carries 2 unused bits of base64url: changing only those
    // leaves the decoded signature the same, so the test would pass or fail by chance).
    const sig = token.lastIndexOf('.') + 5;
    const flipped = token.slice(0, sig) + (token[sig] === 'A' ? 'B' : 'A') + token.slice(sig + 1);
    expect(flipped).not.toBe(token);
    expect(verifyHs256(flipped, secret)).toBeNull();
  });

  it('refuses alg none and every algorithm but HS256, even when the HMAC would match', async () => {
    const none = new UnsecuredJWT({ typ: 'access', sub: 'user-1', jti: 'j' }).setExpirationTime('1h').encode();
    expect(verifyHs256(none, secret)).toBeNull();
    expect(verifyHs256(await signed({ alg: 'HS512' }), secret)).toBeNull();
    // A header claiming HS384 over a SHA-256 HMAC: refused by the header check, not by luck.
    const head = Buffer.from(JSON.stringify({ alg: 'HS384', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: 'u', jti: 'j', typ: 'access', exp: now() + 60 })).toString(
      'base64url',
    );
    const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
    expect(verifyHs256(`${head}.${body}.${sig}`, secret)).toBeNull();
    // The same token with alg HS256 is fine: the check above failed on the algorithm alone.
    const head256 = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const sig256 = createHmac('sha256', secret).update(`${head256}.${body}`).digest('base64url');
    expect(verifyHs256(`${head256}.${body}.${sig256}`, secret)).not.toBeNull();
  });

  it('refuses an expired token, one not valid yet, one without exp, and critical header parameters', async () => {
    expect(verifyHs256(await signed({ exp: now() - 1 }), secret)).toBeNull();
    expect(verifyHs256(await signed({ nbf: now() + 120 }), secret)).toBeNull();
    expect(verifyHs256(await signed({ nbf: now() - 1 }), secret)).not.toBeNull();
    const head = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: 'u', jti: 'j', typ: 'access' })).toString('base64url');
    const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
    expect(verifyHs256(`${head}.${body}.${sig}`, secret)).toBeNull();
    const crit = Buffer.from(JSON.stringify({ alg: 'HS256', crit: ['x'], x: 1 })).toString('base64url');
    const body2 = Buffer.from(JSON.stringify({ sub: 'u', jti: 'j', exp: now() + 60 })).toString('base64url');
    const sig2 = createHmac('sha256', secret).update(`${crit}.${body2}`).digest('base64url');
    expect(verifyHs256(`${crit}.${body2}.${sig2}`, secret)).toBeNull();
  });

  it('refuses malformed tokens without throwing', () => {
    for (const bad of ['', 'a', 'a.b', 'a.b.c.d', '..', 'a..c', '!!.??.**', 'eyJhbGciOiJIUzI1NiJ9.e30.', 'x.y.z'])
      expect(verifyHs256(bad, secret)).toBeNull();
  });
});

describe('TokenService', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses its own token once it has expired', async () => {
    const tokens = new TokenService(secret, 60, 3600);
    const access = await tokens.sign({ sub: 'u1', typ: 'access', role: 'CUSTOMER', cid: 'c1' }, 60);
    await expect(tokens.verify(access, 'access')).resolves.toMatchObject({ sub: 'u1' });
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    await expect(tokens.verify(access, 'access')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('verifies its own tokens by type and refuses the other types with TOKEN_INVALID', async () => {
    const tokens = new TokenService(secret, 900, 86_400);
    const access = await tokens.sign({ sub: 'user-1', typ: 'access', role: 'CUSTOMER', cid: null }, 60);
    await expect(tokens.verify(access, 'access')).resolves.toMatchObject({ sub: 'user-1', typ: 'access' });
    await expect(tokens.verify(access, 'refresh')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await expect(tokens.verify(`${access}x`, 'access')).rejects.toBeInstanceOf(AppError);
    const foreign = new TokenService(other, 900, 86_400);
    await expect(foreign.verify(access, 'access')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });
});
