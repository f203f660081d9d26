import { authRoutes } from '@wms/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCall, buildUrl, setAuthHooks } from './client';

describe('buildUrl', () => {
  it('fills path parameters and drops empty query values', () => {
    expect(buildUrl('/api/x/:id/', { id: 'a b' }, { page: 2, search: '', ordering: undefined })).toBe(
      '/api/x/a%20b/?page=2',
    );
    expect(() => buildUrl('/api/x/:id/', {})).toThrow(/missing path parameter id/);
  });
});

type TCall = { url: string; auth: string | null };

/** A stand-in server: answers 401 to any access token other than `good`. */
function fakeServer(calls: TCall[]) {
  return vi.fn(async (url: string, init: RequestInit) => {
    const auth = (init.headers as Record<string, string>).authorization ?? null;
    calls.push({ url, auth });
    if (auth !== 'Bearer good') {
      return new Response(JSON.stringify({ error: { code: 'TOKEN_INVALID', message: 'x', params: {} } }), {
        status: 401,
      });
    }
    return new Response(JSON.stringify({ id: 'p' }), { status: 200 });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiCall on 401', () => {
  it('refreshes once and retries with the new token', async () => {
    const calls: TCall[] = [];
    vi.stubGlobal('fetch', fakeServer(calls));
    let token = 'stale';
    const expired = vi.fn();
    setAuthHooks({
      token: () => token,
      refresh: async () => {
        token = 'good';
        return true;
      },
      expired,
    });
    await expect(apiCall(authRoutes.profile, {})).resolves.toEqual({ id: 'p' });
    expect(calls.map((c) => c.auth)).toEqual(['Bearer stale', 'Bearer good']);
    expect(expired).not.toHaveBeenCalled();
  });

  it('ends the session when the refresh fails, without a second retry', async () => {
    const calls: TCall[] = [];
    vi.stubGlobal('fetch', fakeServer(calls));
    const expired = vi.fn();
    const refresh = vi.fn(async () => false);
    setAuthHooks({ token: () => 'stale', refresh, expired });
    const err = await apiCall(authRoutes.profile, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('TOKEN_INVALID');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1);
    expect(expired).toHaveBeenCalledWith('customer');
  });

  it('keeps the session on a 401 that answers the call itself (a wrong two-step code)', async () => {
    const calls: TCall[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push({ url, auth: null });
        return new Response(JSON.stringify({ error: { code: 'INVALID_OTP', message: 'x', params: {} } }), {
          status: 401,
        });
      }),
    );
    const expired = vi.fn();
    const refresh = vi.fn(async () => true);
    setAuthHooks({ token: () => 'good', refresh, expired });
    const err = await apiCall(authRoutes.twoFactorEnable, { body: { otp: '123456' } }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('INVALID_OTP');
    expect(refresh).not.toHaveBeenCalled();
    expect(expired).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
  });

  it('sends no bearer header on public routes', async () => {
    const calls: TCall[] = [];
    vi.stubGlobal('fetch', fakeServer(calls));
    setAuthHooks({ token: () => 'good', refresh: async () => false, expired: () => {} });
    await apiCall(authRoutes.login, { body: { email: 'a@b.co', password: 'x' } }).catch(() => undefined);
    expect(calls[0]?.auth).toBeNull();
  });
});
