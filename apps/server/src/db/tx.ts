import type { Db, Tx } from './client';

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

function pgCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The PostgreSQL SQLSTATE of an error thrown by either driver (drizzle wraps it in `cause`). */
export function sqlState(err: unknown): string | undefined {
  return pgCode(err);
}

/** Run one write use case in one transaction; serialization failures and deadlocks are retried, never shown to a caller. */
export async function withTx<T>(db: Db, work: (tx: Tx) => Promise<T>, opts: { retries?: number } = {}): Promise<T> {
  const retries = opts.retries ?? 5;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const code = pgCode(err);
      if (attempt < retries && code && RETRYABLE.has(code)) {
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
        continue;
      }
      throw err;
    }
  }
}
