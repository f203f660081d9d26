import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../auth';

const secret = new TextEncoder().encode('x'.repeat(48));

describe('TokenService.verify (verified tokens are remembered)', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a token seen again with the same claims, and still refuses it as another type', async () => {
    const tokens = new TokenService(secret, 60, 3600);
    const access = await tokens.sign({ sub: 'u1', typ: 'access', role: 'CUSTOMER', cid: 'c1' }, 60);
    const first = await tokens.verify(access, 'access');
    expect(await tokens.verify(access, 'access')).toEqual(first);
    await expect(tokens.verify(access, 'refresh')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    // Another service (another secret) never trusts it, remembered here or not.
    const stranger = new TokenService(new TextEncoder().encode('y'.repeat(48)), 60, 3600);
    await expect(stranger.verify(access, 'access')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('refuses a remembered token once it has expired, and a tampered one at any time', async () => {
    const tokens = new TokenService(secret, 60, 3600);
    const access = await tokens.sign({ sub: 'u1', typ: 'access', role: 'CUSTOMER', cid: 'c1' }, 60);
    await tokens.verify(access, 'access');
    const [head, body, sig] = access.split('.');
    const tampered = `${head}.${body}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verify(tampered, 'access')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    await expect(tokens.verify(access, 'access')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });
});
