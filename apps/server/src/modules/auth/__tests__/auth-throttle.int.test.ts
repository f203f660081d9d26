import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, injectClient, loggedIn, type TTestContext } from '../../../test/harness';

/**
 * Abuse of the public auth routes: parallel guesses cannot slip past the lockout, each client address has a budget
 * (X-Forwarded-For is believed from the loopback proxy only), mail goes through the job queue so SMTP down never
 * fails a request, and forgot-password answers alike for known and unknown addresses.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    LOGIN_MAX_FAILURES: '5',
    AUTH_IP_LIMIT_PER_MINUTE: '25',
    SIGNUP_IP_LIMIT_PER_HOUR: '4',
    MAIL_ADDRESS_LIMIT_PER_HOUR: '2',
    TRUST_PROXY: 'loopback',
  });
}, 60_000);
afterAll(() => ctx?.close());

let nextAddress = 1;
/** A fresh client address per test (the loopback "proxy" names it in X-Forwarded-For). */
const client = () => `203.0.113.${nextAddress++}`;
/** The header the loopback proxy (every call's peer unless sent through `injectClient(…, { remoteAddress })`) adds. */
const forwardedFor = (ip: string) => ({ 'x-forwarded-for': ip });

describe('lockout under parallel guesses', () => {
  it('20 parallel logins (19 wrong, the right one last): the right one is refused once the lock is reached', async () => {
    const c = await ctx.newCustomer();
    const ip = client();
    const attempts = [
      ...Array.from({ length: 19 }, () => ({ email: c.email, password: 'wrong-password' })),
      { email: c.email, password: c.password },
    ];
    const answers = await Promise.all(
      attempts.map((a) => ctx.api.authRoutes.login({ body: a, headers: forwardedFor(ip) })),
    );
    const codes = answers.map((r) => (r.statusCode === 200 ? 'OK' : r.error().code));
    expect(codes[19]).toBe('ACCOUNT_LOCKED');
    // Only LOGIN_MAX_FAILURES guesses were checked at all; every other attempt met the lock.
    expect(codes.filter((x) => x === 'INVALID_CREDENTIALS').length).toBeLessThanOrEqual(4);
    expect(codes.filter((x) => x === 'ACCOUNT_LOCKED').length).toBeGreaterThanOrEqual(15);
    expect(codes).not.toContain('OK');
    const after = await ctx.api.authRoutes.login({
      body: { email: c.email, password: c.password },
      headers: forwardedFor(ip),
    });
    expect(after.error().code).toBe('ACCOUNT_LOCKED');
  });

  it('a right password before the lock still logs in and clears the count', async () => {
    const c = await ctx.newCustomer();
    const ip = client();
    for (let i = 0; i < 4; i++) {
      const r = await ctx.api.authRoutes.login({
        body: { email: c.email, password: 'nope-nope' },
        headers: forwardedFor(ip),
      });
      expect(r.error().code).toBe('INVALID_CREDENTIALS');
    }
    expect(
      (await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password }, headers: forwardedFor(ip) }))
        .statusCode,
    ).toBe(200);
    const wrong = await ctx.api.authRoutes.login({
      body: { email: c.email, password: 'nope-nope' },
      headers: forwardedFor(ip),
    });
    expect(wrong.error().code).toBe('INVALID_CREDENTIALS');
  });
});

describe('auth answers are not cached', () => {
  it('login, refresh and profile answers carry Cache-Control: no-store', async () => {
    const c = await ctx.newCustomer();
    const login = await ctx.api.authRoutes.login({
      body: { email: c.email, password: c.password },
      headers: forwardedFor(client()),
    });
    expect(login.headers['cache-control']).toBe('no-store');
    const refresh = await ctx.api.authRoutes.refresh({
      body: { refresh: loggedIn(login).refresh },
      headers: forwardedFor(client()),
    });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.headers['cache-control']).toBe('no-store');
    const failed = await ctx.api.authRoutes.login({
      body: { email: c.email, password: 'wrong-one' },
      headers: forwardedFor(client()),
    });
    expect(failed.headers['cache-control']).toBe('no-store');
    const profile = await ctx.api.authRoutes.profile({ token: c.token });
    expect(profile.headers['cache-control']).toBe('no-store');
  });
});

describe('per-address budgets', () => {
  it('login, OTP and member login share a per-minute budget per client address, with Retry-After', async () => {
    const ip = client();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const headers = forwardedFor(ip);
      const login = { corp: 'shop', email: `nobody${i}@example.tw`, password: 'whatever1' };
      const res = await [
        () => ctx.api.authRoutes.login({ body: login, headers }),
        () => ctx.api.authRoutes.memberLogin({ body: login, headers }),
        () => ctx.api.authRoutes.verifyOtp({ body: { user_id: crypto.randomUUID(), otp: '123456' }, headers }),
      ][i % 3]!();
      statuses.push(res.statusCode);
    }
    expect(statuses).not.toContain(429);
    const over = await ctx.api.authRoutes.login({
      body: { email: 'x@example.tw', password: 'whatever1' },
      headers: forwardedFor(ip),
    });
    expect(over.error().code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    const other = await ctx.api.authRoutes.login({
      body: { email: 'x@example.tw', password: 'whatever1' },
      headers: forwardedFor(client()),
    });
    expect(other.statusCode).toBe(401);
  });

  it('reset-password tries of one address share that budget: over it 429 with Retry-After; another address goes on', async () => {
    const ip = client();
    const reset = (from: string) =>
      ctx.api.authRoutes.resetPassword({
        body: { token: `guess-${Math.random()}`, new_password: 'new-password-1' },
        headers: forwardedFor(from),
      });
    for (let i = 0; i < 25; i++) {
      const r = await reset(ip);
      expect(r.error().code, `try ${i}`).toBe('TOKEN_INVALID');
    }
    const over = await reset(ip);
    expect(over.statusCode).toBe(429);
    expect(over.error().code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await reset(client())).error().code).toBe('TOKEN_INVALID');
  });

  it('believes X-Forwarded-For only from a trusted proxy (loopback by default)', async () => {
    const outsider = '198.51.100.7';
    // A client that is not the proxy cannot pick a new address per request to escape its budget.
    for (let i = 0; i < 25; i++) {
      const r = await injectClient(ctx.app, { remoteAddress: outsider }).authRoutes.login({
        body: { email: `y${i}@example.tw`, password: 'whatever1' },
        headers: forwardedFor(client()),
      });
      expect(r.statusCode, `attempt ${i}: ${r.body}`).toBe(401);
    }
    const r = await injectClient(ctx.app, { remoteAddress: outsider }).authRoutes.login({
      body: { email: 'y@example.tw', password: 'whatever1' },
      headers: forwardedFor(client()),
    });
    expect(r.error().code).toBe('RATE_LIMITED');
  });

  it('register and forgot-password are throttled per client address', async () => {
    const ip = client();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r =
        i % 2
          ? await ctx.api.authRoutes.forgotPassword({
              body: { email: `who${i}@example.tw` },
              headers: forwardedFor(ip),
            })
          : await ctx.api.authRoutes.register({
              body: { company_name: `Shop ${i}`, name: 'N', email: `reg${ip}-${i}@example.tw` },
              headers: forwardedFor(ip),
            });
      statuses.push(r.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
    const over = await ctx.api.authRoutes.register({
      body: { company_name: 'Shop x', name: 'N', email: `reg-x${ip}@example.tw` },
      headers: forwardedFor(ip),
    });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    const forgot = await ctx.api.authRoutes.forgotPassword({
      body: { email: 'who@example.tw' },
      headers: forwardedFor(ip),
    });
    expect(forgot.statusCode).toBe(429);
  });
});

describe('mail through the job queue', () => {
  it('with SMTP down, register answers 200, the account exists and the mail job waits for its retry', async () => {
    // The earlier tests' mails are sent first (on PostgreSQL they may still be queued), so only this one meets SMTP down.
    await ctx.deps.jobs.whenIdle();
    const send = vi.spyOn(ctx.deps.mailer, 'send').mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:25'));
    try {
      const email = `smtp-down-${Date.now()}@example.tw`;
      const res = await ctx.api.authRoutes.register({
        body: { company_name: 'Down Co', name: 'N', email },
        headers: forwardedFor(client()),
      });
      expect(res.statusCode).toBe(200);
      const mine = () => send.mock.calls.filter((c) => c[0].to === email);
      const deadline = Date.now() + 10_000;
      while (mine().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(mine()).toHaveLength(1);
      expect(mine()[0]![0]).toMatchObject({ to: email, subject: expect.any(String) });
      await new Promise((r) => setTimeout(r, 300));
      const [job] = await queryRows<{ state: string; attempts: number; payload: string }>(
        ctx.deps.database.db,
        sql`select state, attempts, payload::text as payload from jobs
            where kind = 'platform.mail' and payload::text like ${`%${email}%`} order by created_at desc limit 1`,
      );
      // Failed once, queued again for a retry (not failed for good); the password is not stored in clear.
      expect(job).toMatchObject({ state: 'queued', attempts: 1 });
      expect(job!.payload).not.toMatch(/登入帳號|Login:|ログインアカウント/);
      const again = await ctx.api.authRoutes.register({
        body: { company_name: 'Down Co', name: 'N', email },
        headers: forwardedFor(client()),
      });
      expect(again.error().code).toBe('EMAIL_TAKEN');
    } finally {
      send.mockRestore();
    }
  });

  it('forgot-password answers the same for known and unknown addresses, and over the per-address budget', async () => {
    const c = await ctx.newCustomer();
    const ip = client();
    const known = await ctx.api.authRoutes.forgotPassword({ body: { email: c.email }, headers: forwardedFor(ip) });
    const unknown = await ctx.api.authRoutes.forgotPassword({
      body: { email: 'nobody-at-all@example.tw' },
      headers: forwardedFor(ip),
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    const again = await ctx.api.authRoutes.forgotPassword({
      body: { email: c.email },
      headers: forwardedFor(client()),
    });
    const overBudget = await ctx.api.authRoutes.forgotPassword({
      body: { email: c.email },
      headers: forwardedFor(client()),
    });
    expect(again.body).toBe(known.body);
    expect(overBudget.body).toBe(known.body);
  });

  it("an admin's invitation and set-password links share the address' mail budget: over it 429, no mail", async () => {
    const owner = await ctx.newCustomer();
    const email = `invited-${Math.random().toString(36).slice(2, 8)}@example.tw`;
    const before = ctx.outbox().length;
    const invite = await ctx.api.userRoutes.inviteCompanyUser({
      body: { email, name: 'Invited', seller_role: 'office' },
      token: owner.token,
    });
    expect(invite.statusCode, invite.body).toBe(201);
    expect(
      (await ctx.api.userRoutes.resetCompanyUserPassword({ params: { id: invite.json().id }, token: owner.token }))
        .statusCode,
    ).toBe(200);
    const over = await ctx.api.userRoutes.resetCompanyUserPassword({
      params: { id: invite.json().id },
      token: owner.token,
    });
    expect(over.statusCode).toBe(429);
    expect(over.error().code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    await ctx.waitForOutbox(before + 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(ctx.outbox().filter((m) => m.to.includes(email))).toHaveLength(2);
  });
});
