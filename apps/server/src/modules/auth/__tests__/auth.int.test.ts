import { invalidInput } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totp } from '../../../platform/totp';
import { createTestContext, loggedIn, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_FAILURES: '3', ACCESS_TOKEN_TTL_SECONDS: '60' });
});
afterAll(() => ctx?.close());

describe(`login (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('logs a customer in with tokens and role; the access token carries exp', async () => {
    const c = await ctx.newCustomer();
    const res = await ctx.api.authRoutes.login({ body: { email: c.email.toUpperCase(), password: c.password } });
    expect(res.statusCode).toBe(200);
    const body = loggedIn(res);
    expect(body.status).toBe('login');
    expect(body.role).toBe('CUSTOMER');
    const payload = JSON.parse(Buffer.from(body.access.split('.')[1]!, 'base64url').toString());
    expect(payload.exp - payload.iat).toBe(60);
    const profile = await ctx.api.authRoutes.profile({ token: body.access });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      email: c.email,
      role: 'CUSTOMER',
      language: 'zh-TW',
      theme: 'light',
      two_factor_enabled: false,
    });
    expect(profile.json().company!.id).toBe(c.customerId);
  });

  it('answers unknown e-mail and wrong password with the same 401', async () => {
    const c = await ctx.newCustomer();
    const wrong = await ctx.api.authRoutes.login({ body: { email: c.email, password: 'nope-nope' }, lang: 'en' });
    const unknown = await ctx.api.authRoutes.login({
      body: { email: 'nobody@test.local', password: 'nope-nope' },
      lang: 'en',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.error()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Incorrect login account or password',
    });
    const zh = await ctx.api.authRoutes.login({ body: { email: 'nobody2@test.local', password: 'x' } });
    expect(zh.error().message).toBe('登入帳號或密碼錯誤');
  });

  it('locks an account after repeated failures, even with the right password', async () => {
    const c = await ctx.newCustomer();
    for (let i = 0; i < 2; i++)
      expect((await ctx.api.authRoutes.login({ body: { email: c.email, password: 'bad-bad-bad' } })).statusCode).toBe(
        401,
      );
    const third = await ctx.api.authRoutes.login({ body: { email: c.email, password: 'bad-bad-bad' } });
    expect(third.statusCode).toBe(429);
    expect(third.error().code).toBe('ACCOUNT_LOCKED');
    const right = await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password } });
    expect(right.statusCode).toBe(429);
    // unknown e-mails lock the same way, so a lockout does not reveal that an account exists
    for (let i = 0; i < 2; i++) await ctx.api.authRoutes.login({ body: { email: 'ghost@test.local', password: 'x' } });
    expect((await ctx.api.authRoutes.login({ body: { email: 'ghost@test.local', password: 'x' } })).error().code).toBe(
      'ACCOUNT_LOCKED',
    );
  });

  it('names missing and malformed fields', async () => {
    const missing = await ctx.api.authRoutes.login({ body: invalidInput({ email: 'a@b.tw' }), lang: 'en' });
    expect(missing.statusCode).toBe(400);
    expect(missing.error()).toMatchObject({
      code: 'REQUIRED_FIELD',
      params: { field: 'password' },
      message: 'Password is required',
    });
    const bad = await ctx.api.authRoutes.login({ body: { email: 'not-an-email', password: 'x' }, lang: 'ja' });
    expect(bad.statusCode).toBe(400);
    expect(bad.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'email' } });
    expect(bad.error().message).toContain('メールアドレス');
    // Broken JSON text, sent as it is.
    const junk = await ctx.api.authRoutes.login({
      body: invalidInput('{"email":'),
      headers: { 'content-type': 'application/json' },
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.error().code).toBe('INVALID_FIELD');
  });

  it('refuses an oversized body with 413 and no internals', async () => {
    const res = await ctx.api.authRoutes.login({ body: { email: 'a@b.tw', password: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.error().code).toBe('BODY_TOO_LARGE');
  });
});

describe('tokens', () => {
  it('rotates refresh tokens; reuse of a rotated one revokes the whole family', async () => {
    const c = await ctx.newCustomer();
    const first = await ctx.login(c.email, c.password);
    const r1 = await ctx.api.authRoutes.refresh({ body: { refresh: first.refresh } });
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.access).toBeTruthy();
    expect(second.refresh).not.toBe(first.refresh);
    // replay the rotated token after the retry grace: refused, and the newer token of the same family dies with it
    await ctx.deps.database.db.execute(
      sql`update refresh_tokens set used_at = used_at - make_interval(secs => ${ctx.deps.config.refreshReuseGrace + 1})
          where used_at is not null`,
    );
    const replay = await ctx.api.authRoutes.refresh({ body: { refresh: first.refresh } });
    expect(replay.statusCode).toBe(401);
    expect(replay.error().code).toBe('TOKEN_INVALID');
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: second.refresh } })).statusCode).toBe(401);
    // another login (another family) is untouched
    const other = await ctx.login(c.email, c.password);
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: other.refresh } })).statusCode).toBe(200);
  });

  it('gives a client that retries a refresh moments later a sibling token, and keeps the family alive', async () => {
    const c = await ctx.newCustomer();
    const first = await ctx.login(c.email, c.password);
    const a = await ctx.api.authRoutes.refresh({ body: { refresh: first.refresh } });
    // the page reloaded before it stored a's answer (or a second tab raced it): the same token comes back at once
    const b = await ctx.api.authRoutes.refresh({ body: { refresh: first.refresh } });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json().refresh).not.toBe(a.json().refresh);
    const profile = await ctx.api.authRoutes.profile({ token: b.json().access });
    expect(profile.statusCode).toBe(200);
    // both successors keep working; the first token, once its grace is over, is a theft and ends the family
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: a.json().refresh } })).statusCode).toBe(200);
    await ctx.deps.database.db.execute(
      sql`update refresh_tokens set used_at = used_at - make_interval(secs => ${ctx.deps.config.refreshReuseGrace + 1})
          where used_at is not null`,
    );
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: first.refresh } })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: b.json().refresh } })).statusCode).toBe(401);
  });

  it('refuses tampered, expired, alg:none and wrong-type tokens', async () => {
    const c = await ctx.newCustomer();
    const { access, refresh } = await ctx.login(c.email, c.password);
    const [h, p, s] = access.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, role: 'EMPLOYEE' })).toString('base64url');
    expect((await ctx.api.authRoutes.profile({ token: `${h}.${tamperedPayload}.${s}` })).statusCode).toBe(401);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    expect((await ctx.api.authRoutes.profile({ token: none })).statusCode).toBe(401);
    const expired = await new SignJWT({ typ: 'access', role: 'CUSTOMER', cid: c.customerId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.userId)
      .setJti('x')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(ctx.config.jwtSecret);
    const exp = await ctx.api.authRoutes.profile({ token: expired });
    expect(exp.statusCode).toBe(401);
    expect(exp.error().code).toBe('TOKEN_INVALID');
    const otherKey = await new SignJWT({ typ: 'access', role: 'CUSTOMER', cid: c.customerId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.userId)
      .setJti('y')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(64)));
    expect((await ctx.api.authRoutes.profile({ token: otherKey })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.profile({ token: refresh })).statusCode).toBe(401); // a refresh token is not an access token
    expect((await ctx.api.authRoutes.profile()).error().code).toBe('UNAUTHENTICATED');
  });

  it('keeps roles apart: customer vs employee profile', async () => {
    const c = await ctx.newCustomer();
    const e = await ctx.newEmployee();
    expect((await ctx.api.authRoutes.employeeProfile({ token: c.token })).statusCode).toBe(403);
    expect((await ctx.api.authRoutes.profile({ token: e.token })).statusCode).toBe(403);
    const ep = await ctx.api.authRoutes.employeeProfile({ token: e.token });
    expect(ep.statusCode).toBe(200);
    expect(ep.json()).toMatchObject({ role: 'EMPLOYEE', company: null });
    const login = await ctx.api.authRoutes.login({ body: { email: e.email, password: e.password } });
    expect(loggedIn(login).role).toBe('EMPLOYEE');
  });
});

describe('two-step login', () => {
  it('sets up, enables, logs in with an OTP once, refuses replay and bad codes, disables', async () => {
    const c = await ctx.newCustomer();
    const setup = await ctx.api.authRoutes.twoFactorSetup({ token: c.token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_uri, qr_data_url } = setup.json();
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(qr_data_url).toMatch(/^data:image\/png;base64,/);
    // the secret is encrypted at rest
    const { users } = await import('../../../db/schema');
    const { eq } = await import('drizzle-orm');
    const [row] = await ctx.deps.database.db.select().from(users).where(eq(users.id, c.userId));
    expect(row!.totp_secret_enc).not.toContain(secret);

    const badEnable = await ctx.api.authRoutes.twoFactorEnable({
      body: { otp: '000000' === totp(secret) ? '111111' : '000000' },
      token: c.token,
    });
    expect(badEnable.statusCode).toBe(401);
    const enable = await ctx.api.authRoutes.twoFactorEnable({ body: { otp: totp(secret) }, token: c.token });
    expect(enable.statusCode).toBe(200);
    expect(enable.json().two_factor_enabled).toBe(true);

    const step1 = await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password } });
    expect(step1.json()).toEqual({ status: 'otp', user_id: c.userId });
    expect((step1.json() as Record<string, unknown>).access).toBeUndefined();
    // the code used to enable cannot be used again; the next step's code works once
    const replayEnableCode = await ctx.api.authRoutes.verifyOtp({ body: { user_id: c.userId, otp: totp(secret) } });
    expect(replayEnableCode.statusCode).toBe(401);
    const next = totp(secret, Date.now() + 30_000);
    const ok = await ctx.api.authRoutes.verifyOtp({ body: { user_id: c.userId, otp: next } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'login', role: 'CUSTOMER' });
    await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password } });
    const replay = await ctx.api.authRoutes.verifyOtp({ body: { user_id: c.userId, otp: next } });
    expect(replay.statusCode).toBe(401);
    expect(replay.error().code).toBe('INVALID_OTP');
    const shortOtp = await ctx.api.authRoutes.verifyOtp({ body: { user_id: c.userId, otp: '123' } });
    expect(shortOtp.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'otp' } });

    const disableBadPw = await ctx.api.authRoutes.twoFactorDisable({
      body: { password: 'wrong-pw', otp: '123456' },
      token: ok.json().access,
    });
    expect(disableBadPw.error().code).toBe('WRONG_PASSWORD');
    // a later code is needed (the last one is used): let half a minute pass
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 31_000);
      const disable = await ctx.api.authRoutes.twoFactorDisable({
        body: { password: c.password, otp: totp(secret, Date.now() + 30_000) },
        token: ok.json().access,
      });
      expect(disable.statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect((await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password } })).json().status).toBe(
      'login',
    );
  });

  it('limits OTP attempts and needs a pending login', async () => {
    const c = await ctx.newCustomer();
    const { secret } = (await ctx.api.authRoutes.twoFactorSetup({ token: c.token })).json();
    await ctx.api.authRoutes.twoFactorEnable({ body: { otp: totp(secret) }, token: c.token });
    const notPending = await ctx.api.authRoutes.verifyOtp({
      body: { user_id: c.userId, otp: totp(secret, Date.now() + 30_000) },
    });
    expect(notPending.error().code).toBe('OTP_NOT_PENDING');
    await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password } });
    const wrong = totp(secret, Date.now() + 10 * 30_000);
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await ctx.api.authRoutes.verifyOtp({ body: { user_id: c.userId, otp: wrong } })).error().code);
    expect(codes).toEqual(['INVALID_OTP', 'INVALID_OTP', 'ACCOUNT_LOCKED']);
    const right = await ctx.api.authRoutes.verifyOtp({
      body: { user_id: c.userId, otp: totp(secret, Date.now() + 30_000) },
    });
    expect(right.error().code).toBe('ACCOUNT_LOCKED');
  });
});
