import { refreshDelayMs } from './jwt';

export interface TTokenPair {
  access: string;
  refresh: string;
}

/** Why a refresh did not give a new token: the server refused it (→ logout) or could not be reached. */
export type TRefreshOutcome = 'refreshed' | 'refused' | 'unreachable';

export interface TTokenStoreOptions<S extends TTokenPair> {
  /** localStorage key; the user and the store-member sessions are kept apart. */
  key: string;
  /** Exchange a refresh token for a new pair; resolve null when the server refuses it, throw when unreachable. */
  exchange: (refresh: string) => Promise<TTokenPair | null>;
  /** Validates what was read back from storage. */
  isValid: (value: unknown) => value is S;
  now?: () => number;
  storage?: () => Storage | null;
  /** Cross-tab mutual exclusion (Web Locks); without it a refresh is only single-flight inside the tab. */
  lock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function defaultLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request(name, fn) as Promise<T>) : fn();
}

/**
 * A persisted session (tokens plus whatever the kind of session keeps) with the refresh rules of spec §7:
 * the access token is refreshed 60 s before it expires, and on demand (entering a guarded route, after a 401).
 * Refresh tokens rotate on every use and a reused one revokes the family, so a refresh re-reads storage inside
 * a cross-tab lock and never sends a token another tab has already spent.
 */
export class TokenStore<S extends TTokenPair> {
  private value: S | null;
  private readonly listeners = new Set<() => void>();
  private inflight: Promise<TRefreshOutcome> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private readonly storage: () => Storage | null;
  private readonly lock: <T>(name: string, fn: () => Promise<T>) => Promise<T>;

  constructor(private readonly opts: TTokenStoreOptions<S>) {
    this.now = opts.now ?? Date.now;
    this.storage = opts.storage ?? defaultStorage;
    this.lock = opts.lock ?? defaultLock;
    this.value = this.readStorage();
    this.schedule();
    if (typeof window !== 'undefined') {
      window.addEventListener('storage', (e) => {
        if (e.key === opts.key || e.key === null) this.adopt(this.readStorage());
      });
    }
  }

  get(): S | null {
    return this.value;
  }

  isLoggedIn(): boolean {
    return this.value !== null;
  }

  accessToken(): string | null {
    return this.value?.access ?? null;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(value: S): void {
    this.storage()?.setItem(this.opts.key, JSON.stringify(value));
    this.adopt(value);
  }

  /** Merge fields into the current session (no-op when logged out). */
  update(patch: Partial<S>): void {
    if (this.value) this.set({ ...this.value, ...patch });
  }

  clear(): void {
    this.storage()?.removeItem(this.opts.key);
    this.adopt(null);
  }

  /** Refresh now (single-flight). 'refused' clears the session: the caller logs out. */
  refresh(): Promise<TRefreshOutcome> {
    if (!this.inflight) {
      this.inflight = this.lock(`${this.opts.key}.refresh`, () => this.refreshLocked()).finally(() => {
        this.inflight = null;
      });
    }
    return this.inflight;
  }

  private async refreshLocked(): Promise<TRefreshOutcome> {
    const before = this.value?.refresh;
    const stored = this.readStorage();
    if (!stored) {
      this.adopt(null);
      return 'refused';
    }
    if (before && stored.refresh !== before) {
      // Another tab refreshed while we waited for the lock: its tokens are ours too.
      this.adopt(stored);
      return 'refreshed';
    }
    let pair: TTokenPair | null;
    try {
      pair = await this.opts.exchange(stored.refresh);
    } catch {
      return 'unreachable';
    }
    if (!pair) {
      this.clear();
      return 'refused';
    }
    this.set({ ...stored, access: pair.access, refresh: pair.refresh });
    return 'refreshed';
  }

  private readStorage(): S | null {
    const raw = this.storage()?.getItem(this.opts.key);
    if (!raw) return null;
    try {
      const parsed: unknown = JSON.parse(raw);
      return this.opts.isValid(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  private adopt(value: S | null): void {
    const changed = JSON.stringify(value) !== JSON.stringify(this.value);
    this.value = value;
    this.schedule();
    if (changed) for (const l of this.listeners) l();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.value || typeof window === 'undefined') return;
    const delay = refreshDelayMs(this.value.access, this.now());
    if (delay === null) return;
    // setTimeout overflows past ~24.8 days; tokens never live that long, but stay safe.
    this.timer = setTimeout(() => void this.refresh(), Math.min(delay, 2 ** 31 - 1));
  }
}
