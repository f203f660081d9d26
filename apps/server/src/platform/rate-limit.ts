import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { TDatabase } from '../db/client';
import { AppError } from './errors';

/** How many points a key may spend per window; `blockSeconds` keeps it refused that long once over. */
export interface TRateRule {
  points: number;
  durationSeconds: number;
  blockSeconds?: number;
}

type TLimiter = RateLimiterMemory | RateLimiterPostgres;

/**
 * The one rate limiter (rate-limiter-flexible). On PostgreSQL the counters live in the `rate_limits` table, shared by
 * every app process (one atomic upsert per call); on PGlite (one process per data directory) they live in memory.
 * A store failure falls back to an in-memory limiter, so a database hiccup neither opens nor closes the gate.
 * `consume` throws RATE_LIMITED with `retry_after` (seconds), which the error handler sends as `Retry-After`.
 */
export class RateLimits {
  private readonly limiters = new Map<string, TLimiter>();

  constructor(private readonly database: Pick<TDatabase, 'engine' | 'pool' | 'pooled'>) {}

  /**
   * rate-limiter-flexible names its statements (`rate_limits:rlflx-upsert`, …); behind a transaction pooler a name
   * prepared in one server session is unknown to the next, so there its queries go unnamed.
   */
  private storeClient(): unknown {
    const pool = this.database.pool!;
    if (!this.database.pooled) return pool;
    return {
      query: (q: { text: string; values?: unknown[] }) => pool.query({ text: q.text, values: q.values }),
    };
  }

  private limiter(bucket: string, rule: TRateRule): TLimiter {
    const name = `${bucket}|${rule.points}|${rule.durationSeconds}|${rule.blockSeconds ?? 0}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const opts = {
        keyPrefix: bucket,
        points: rule.points,
        duration: rule.durationSeconds,
        blockDuration: rule.blockSeconds ?? 0,
      };
      limiter =
        this.database.engine === 'postgres' && this.database.pool
          ? new RateLimiterPostgres({
              ...opts,
              storeClient: this.storeClient(),
              storeType: 'pool',
              tableName: 'rate_limits',
              tableCreated: true,
              clearExpiredByTimeout: false,
              insuranceLimiter: new RateLimiterMemory(opts),
            })
          : new RateLimiterMemory(opts);
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Spend `points` of `key` in `bucket`; over the rule → AppError RATE_LIMITED { retry_after }. */
  async consume(bucket: string, key: string, rule: TRateRule, points = 1): Promise<{ remaining: number }> {
    try {
      const res = await this.limiter(bucket, rule).consume(key, points);
      return { remaining: res.remainingPoints };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        throw new AppError('RATE_LIMITED', { retry_after: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) });
      }
      throw err;
    }
  }

  /** Forget a key's counter (e.g. after a successful login). */
  async reset(bucket: string, key: string, rule: TRateRule): Promise<void> {
    await this.limiter(bucket, rule).delete(key);
  }
}
