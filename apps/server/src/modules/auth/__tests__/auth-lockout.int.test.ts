import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, injectClient, loggedIn, type TTestContext } from '../../../test/harness';

/**
 * No lock-out by strangers (OWASP ASVS 2.2): wrong passwords are counted per account and client address. An address
 * that keeps guessing is locked out of that account, each lock twice as long as the last; the owner's right password
 * from an address without failures still signs in, and they are told of the failed attempts at that sign-in.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    LOGIN_MAX_FAILURES: '5',
    LOGIN_LOCK_MINUTES: '15',
    AUTH_IP_LIMIT_PER_MINUTE: '1000',
  });
}, 60_000);
afterAll(() => ctx?.close());

const login = (email: string, password: string, remoteAddress: string) =>
  injectClient(ctx.app, { remoteAddress }).authRoutes.login({ body: { email, password } });

/** The running lock of `email` from `address` has run out (time moves on without waiting for it). */
async function expireLock(email: string, address: string): Promise<void> {
  await ctx.deps.database.db.execute(
    sql`update login_attempts set locked_until = now() - interval '1 second' where key = ${`login:${email}|${address}`}`,
  );
}

describe('login throttling per account and address', () => {
  it('five wrong passwords from each of five addresses do not keep the owner out; the guessers are throttled', async () => {
    const c = await ctx.newCustomer();
    const attackers = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5'];
    for (const address of attackers) {
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) codes.push((await login(c.email, `wrong-${i}-pass`, address)).error().code);
      expect(codes).toEqual([...Array(4).fill('INVALID_CREDENTIALS'), 'ACCOUNT_LOCKED']);
    }
    // The guessers, even with the right password now, are refused for the lock's time.
    const guesser = await login(c.email, c.password, attackers[0]!);
    expect(guesser.statusCode).toBe(429);
    expect(guesser.error()).toMatchObject({ code: 'ACCOUNT_LOCKED', params: { minutes: 1 } });
    // The owner, from an address without failures, signs in, and is told of the 25 wrong passwords.
    const owner = await login(c.email, c.password, '203.0.113.50');
    expect(owner.statusCode, owner.body).toBe(200);
    const told = loggedIn(owner).failed_logins;
    expect(told?.count).toBe(25);
    expect(Math.abs(Date.parse(told!.last_at) - Date.now())).toBeLessThan(60_000);
    // Told once: the next sign-in has nothing to tell.
    const again = await login(c.email, c.password, '203.0.113.50');
    expect(again.statusCode).toBe(200);
    expect(loggedIn(again).failed_logins).toBeUndefined();
  });

  it('each next lock of a guessing address lasts twice the last, up to LOGIN_LOCK_MINUTES, one guess between', async () => {
    const c = await ctx.newCustomer();
    const address = '198.51.100.20';
    for (let i = 0; i < 4; i++) await login(c.email, 'wrong-pass-1', address);
    const minutes: number[] = [];
    const first = await login(c.email, 'wrong-pass-1', address);
    minutes.push(first.error().params?.minutes as number);
    for (let lock = 0; lock < 6; lock++) {
      await expireLock(c.email, address);
      // One guess is checked after a lock; a wrong one locks again, longer.
      const next = await login(c.email, 'wrong-pass-2', address);
      expect(next.error().code).toBe('ACCOUNT_LOCKED');
      minutes.push(next.error().params?.minutes as number);
      expect((await login(c.email, 'wrong-pass-3', address)).error().code).toBe('ACCOUNT_LOCKED');
    }
    expect(minutes).toEqual([1, 2, 4, 8, 15, 15, 15]);
    // After a lock, the right password from that address signs in and starts it over.
    await expireLock(c.email, address);
    expect((await login(c.email, c.password, address)).statusCode).toBe(200);
    expect((await login(c.email, 'wrong-pass-4', address)).error().code).toBe('INVALID_CREDENTIALS');
    const [row] = await queryRows<{ failures: number; locks: number }>(
      ctx.deps.database.db,
      sql`select failures, locks from login_attempts where key = ${`login:${c.email}|${address}`}`,
    );
    expect(row).toMatchObject({ failures: 1, locks: 0 });
  });

  it('an unknown e-mail is throttled the same way (a lock does not tell that an account exists)', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push((await login('nobody-here@test.local', 'x', '198.51.100.30')).error().code);
    expect(codes).toEqual([...Array(4).fill('INVALID_CREDENTIALS'), 'ACCOUNT_LOCKED', 'ACCOUNT_LOCKED']);
    expect((await login('nobody-here@test.local', 'x', '198.51.100.31')).error().code).toBe('INVALID_CREDENTIALS');
  });

  it('parallel guesses from one address: at most LOGIN_MAX_FAILURES are checked; another address still signs in', async () => {
    const c = await ctx.newCustomer();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => login(c.email, `wrong-parallel-${i}`, '198.51.100.40')),
    );
    const codes = answers.map((r) => r.error().code);
    expect(codes.filter((x) => x === 'INVALID_CREDENTIALS').length).toBeLessThanOrEqual(4);
    expect(codes.filter((x) => x === 'ACCOUNT_LOCKED').length).toBeGreaterThanOrEqual(11);
    const owner = await login(c.email, c.password, '203.0.113.51');
    expect(owner.statusCode).toBe(200);
    expect(loggedIn(owner).failed_logins?.count).toBe(codes.filter((x) => x === 'INVALID_CREDENTIALS').length + 1);
  });
});
