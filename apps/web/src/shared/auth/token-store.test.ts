import { describe, expect, it } from 'vitest';
import { jwtExpiry, refreshDelayMs } from './jwt';
import { TokenStore, type TTokenPair } from './token-store';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (exp: number) => `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'u', exp })}.sig`;

function store(storage: Storage, exchange: (refresh: string) => Promise<TTokenPair | null>) {
  return new TokenStore<TTokenPair & { role: string }>({
    key: 'test.session',
    exchange,
    isValid: (v): v is TTokenPair & { role: string } => typeof (v as { access?: unknown }).access === 'string',
    storage: () => storage,
    lock: (_name, fn) => fn(),
  });
}

describe('jwt expiry', () => {
  it('reads exp and schedules the refresh 60 s before it', () => {
    expect(jwtExpiry(jwt(1_000))).toBe(1_000);
    expect(refreshDelayMs(jwt(1_000), 900_000)).toBe(1_000_000 - 60_000 - 900_000);
    expect(refreshDelayMs(jwt(1_000), 999_000)).toBe(0);
    expect(jwtExpiry('not-a-token')).toBeNull();
  });
});

describe('TokenStore', () => {
  it('keeps the session in storage and sends the current refresh token, storing the rotated one', async () => {
    const storage = memoryStorage();
    const seen: string[] = [];
    const s = store(storage, async (refresh) => {
      seen.push(refresh);
      return { access: jwt(2_000_000_000), refresh: `${refresh}+1` };
    });
    s.set({ access: jwt(1), refresh: 'r0', role: 'CUSTOMER' });
    expect(await s.refresh()).toBe('refreshed');
    expect(await s.refresh()).toBe('refreshed');
    expect(seen).toEqual(['r0', 'r0+1']);
    expect(JSON.parse(storage.getItem('test.session')!)).toMatchObject({ refresh: 'r0+1+1', role: 'CUSTOMER' });
  });

  it('runs one refresh at a time: concurrent callers share it', async () => {
    let calls = 0;
    const s = store(memoryStorage(), async (refresh) => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return { access: jwt(2_000_000_000), refresh: `${refresh}+` };
    });
    s.set({ access: jwt(1), refresh: 'r', role: 'CUSTOMER' });
    const outcomes = await Promise.all([s.refresh(), s.refresh(), s.refresh()]);
    expect(outcomes).toEqual(['refreshed', 'refreshed', 'refreshed']);
    expect(calls).toBe(1);
  });

  it('adopts tokens another tab rotated instead of spending the old refresh token again', async () => {
    const storage = memoryStorage();
    let calls = 0;
    const s = store(storage, async () => {
      calls++;
      return null;
    });
    s.set({ access: jwt(1), refresh: 'old', role: 'CUSTOMER' });
    storage.setItem('test.session', JSON.stringify({ access: jwt(2_000_000_000), refresh: 'new', role: 'CUSTOMER' }));
    expect(await s.refresh()).toBe('refreshed');
    expect(calls).toBe(0);
    expect(s.get()?.refresh).toBe('new');
  });

  it('clears the session when the server refuses the refresh, and notifies', async () => {
    const storage = memoryStorage();
    const s = store(storage, async () => null);
    s.set({ access: jwt(1), refresh: 'r', role: 'CUSTOMER' });
    let notified = 0;
    s.subscribe(() => notified++);
    expect(await s.refresh()).toBe('refused');
    expect(s.get()).toBeNull();
    expect(storage.getItem('test.session')).toBeNull();
    expect(notified).toBe(1);
  });

  it('keeps the session when the server cannot be reached', async () => {
    const s = store(memoryStorage(), async () => {
      throw new Error('offline');
    });
    s.set({ access: jwt(1), refresh: 'r', role: 'CUSTOMER' });
    expect(await s.refresh()).toBe('unreachable');
    expect(s.get()?.refresh).toBe('r');
  });

  it('ignores storage content that is not a session', () => {
    const storage = memoryStorage();
    storage.setItem('test.session', '{"nope":1}');
    expect(store(storage, async () => null).get()).toBeNull();
  });
});
