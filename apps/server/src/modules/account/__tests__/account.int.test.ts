import { invalidInput } from '@wms/contracts/client';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, store_members, stores } from '../../../db/schema';
import { hashPassword } from '../../../platform/crypto';
import { createMailer } from '../../../platform/mail';
import { createTestContext, loggedIn, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('registration', () => {
  it('creates the company and first CUSTOMER user and mails the generated password in the user language', async () => {
    const email = 'New.Seller@Example.tw';
    const res = await ctx.api.authRoutes.register({
      body: { company_name: '好物商行', name: '王小明', email, language: 'en' },
    });
    expect(res.statusCode).toBe(200);
    const mail = (await ctx.waitForOutbox(1)).find((m) => m.to.includes('new.seller@example.tw'));
    expect(mail, 'registration mail in the outbox').toBeTruthy();
    expect(mail!.subject).toBe('Welcome to WMS: your password');
    const password = /Password: (\S+)/.exec(mail!.text)?.[1] ?? '';
    expect(password).toMatch(/^\S{12}$/);
    const login = await ctx.api.authRoutes.login({ body: { email, password } });
    expect(login.statusCode).toBe(200);
    const profile = await ctx.api.authRoutes.profile({ token: loggedIn(login).access });
    expect(profile.json()).toMatchObject({
      name: '王小明',
      role: 'CUSTOMER',
      language: 'en',
      company: { name: '好物商行' },
      // The mailed password must be replaced at the first sign-in.
      password_change_required: true,
    });
    const changed = await ctx.api.authRoutes.changePassword({
      body: { old_password: password, new_password: 'my-own-password-1' },
      token: loggedIn(login).access,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // The registration mail's copy in the local outbox (no SMTP) is gone with the password it carried.
    expect(ctx.outbox().filter((m) => m.text.includes(password!))).toEqual([]);
    const next = await ctx.api.authRoutes.login({ body: { email, password: 'my-own-password-1' } });
    const after = await ctx.api.authRoutes.profile({ token: loggedIn(next).access });
    expect(after.json().password_change_required).toBe(false);
    const again = await ctx.api.authRoutes.register({ body: { company_name: 'x', name: 'y', email } });
    expect(again.statusCode).toBe(409);
    expect(again.error()).toMatchObject({ code: 'EMAIL_TAKEN', params: { field: 'email' } });
  });

  it('names the missing field', async () => {
    const res = await ctx.api.authRoutes.register({ body: invalidInput({ name: 'a', email: 'a@b.tw' }), lang: 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.error()).toMatchObject({
      code: 'REQUIRED_FIELD',
      params: { field: 'company_name' },
      message: 'Company name is required',
    });
    const empty = await ctx.api.authRoutes.register({
      body: { company_name: '  ', name: 'a', email: 'a@b.tw' },
      lang: 'en',
    });
    expect(empty.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'company_name' } });
  });
});

describe('password', () => {
  it('forgot password answers the same for known and unknown e-mails and the mailed link resets once', async () => {
    const c = await ctx.newCustomer();
    const before = ctx.outbox().length;
    const known = await ctx.api.authRoutes.forgotPassword({ body: { email: c.email } });
    const unknown = await ctx.api.authRoutes.forgotPassword({ body: { email: 'nobody-here@test.local' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    await ctx.waitForOutbox(before + 1);
    await new Promise((r) => setTimeout(r, 300)); // a second (wrong) mail would have arrived by now
    const mails = ctx.outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('WMS：重設密碼');
    const token = /format-password\?token=([\w%-]+)/.exec(mails[0]!.text)?.[1];
    expect(token).toBeTruthy();
    const short = await ctx.api.authRoutes.resetPassword({
      body: { token: decodeURIComponent(token!), new_password: '123456' },
      lang: 'en',
    });
    expect(short.error()).toMatchObject({
      code: 'PASSWORD_TOO_SHORT',
      message: 'Password length must be greater than 6',
    });
    const ok = await ctx.api.authRoutes.resetPassword({
      body: { token: decodeURIComponent(token!), new_password: 'brand-new-pw' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await ctx.api.authRoutes.login({ body: { email: c.email, password: 'brand-new-pw' } })).statusCode).toBe(
      200,
    );
    expect((await ctx.api.authRoutes.login({ body: { email: c.email, password: c.password } })).statusCode).toBe(401);
    const reuse = await ctx.api.authRoutes.resetPassword({
      body: {
        token: decodeURIComponent(token!),
        new_password: 'another-pw-1',
      },
    });
    expect(reuse.statusCode).toBe(401);
  });

  it('change password checks the old one, enforces length > 6 and revokes every refresh token', async () => {
    const c = await ctx.newCustomer();
    const session = await ctx.login(c.email, c.password);
    const wrongOld = await ctx.api.authRoutes.changePassword({
      body: { old_password: 'wrong', new_password: 'new-password-1' },
      token: c.token,
    });
    expect(wrongOld.error()).toMatchObject({ code: 'WRONG_PASSWORD', params: { field: 'old_password' } });
    const six = await ctx.api.authRoutes.changePassword({
      body: { old_password: c.password, new_password: '123456' },
      token: c.token,
    });
    expect(six.error()).toMatchObject({ code: 'PASSWORD_TOO_SHORT', params: { field: 'new_password' } });
    const seven = await ctx.api.authRoutes.changePassword({
      body: { old_password: c.password, new_password: '1234567' },
      token: c.token,
    });
    expect(seven.statusCode).toBe(200);
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: session.refresh } })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.login({ body: { email: c.email, password: '1234567' } })).statusCode).toBe(200);
    const audits = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.actor_id, c.userId));
    expect(audits.map((a) => a.action)).toContain('change_password');
    expect(JSON.stringify(audits)).not.toContain('1234567');
  });
});

describe('profile', () => {
  it('updates name, language and theme, and refuses unknown values', async () => {
    const c = await ctx.newCustomer();
    const res = await ctx.api.authRoutes.updateProfile({
      body: { language: 'ja', theme: 'dark', name: '佐藤' },
      token: c.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ language: 'ja', theme: 'dark', name: '佐藤' });
    const again = await ctx.api.authRoutes.profile({ token: c.token });
    expect(again.json()).toMatchObject({ language: 'ja', theme: 'dark' });
    const bad = await ctx.api.authRoutes.updateProfile({ body: invalidInput({ language: 'fr' }), token: c.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'language' } });
  });

  it('keeps the default label format (A4 sheet unless the user picks the thermal roll), per user', async () => {
    const c = await ctx.newCustomer();
    const other = await ctx.newCustomer();
    const first = await ctx.api.authRoutes.profile({ token: c.token });
    expect(first.json().label_format).toBe('sheet');
    const res = await ctx.api.authRoutes.updateProfile({ body: { label_format: 'thermal' }, token: c.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ label_format: 'thermal', language: first.json().language });
    expect((await ctx.api.authRoutes.profile({ token: c.token })).json().label_format).toBe('thermal');
    // Another user's default is their own.
    expect((await ctx.api.authRoutes.profile({ token: other.token })).json().label_format).toBe('sheet');
    const bad = await ctx.api.authRoutes.updateProfile({
      body: invalidInput({ label_format: 'roll' }),
      token: c.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'label_format' } });
    const audits = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.actor_id, c.userId));
    expect(audits.find((a) => a.entity === 'profile')).toMatchObject({ after: { label_format: 'thermal' } });
  });
});

describe('store members', () => {
  it('logs a member in by store short URL; member and user tokens are not interchangeable', async () => {
    const c = await ctx.newCustomer();
    const db = ctx.deps.database.db;
    const [store] = await db
      .insert(stores)
      .values({ customer_id: c.customerId, name: '好物小舖', short_url: 'goodies', description: 'desc' })
      .returning();
    await db.insert(store_members).values({
      customer_id: c.customerId,
      store_id: store!.id,
      email: 'member@shop.tw',
      name: 'Member',
      password_hash: await hashPassword('member-pass'),
    });
    const bad = await ctx.api.authRoutes.memberLogin({
      body: { corp: 'goodies', email: 'member@shop.tw', password: 'nope' },
    });
    expect(bad.error().code).toBe('INVALID_CREDENTIALS');
    const wrongStore = await ctx.api.authRoutes.memberLogin({
      body: {
        corp: 'other-store',
        email: 'member@shop.tw',
        password: 'member-pass',
      },
    });
    expect(wrongStore.error().code).toBe('INVALID_CREDENTIALS');
    const res = await ctx.api.authRoutes.memberLogin({
      body: { corp: 'Goodies', email: 'member@shop.tw', password: 'member-pass' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.profile).toMatchObject({ email: 'member@shop.tw', store: { short_url: 'goodies', name: '好物小舖' } });
    const me = await ctx.api.authRoutes.memberProfile({ token: body.access });
    expect(me.statusCode).toBe(200);
    // a member token on customer/employee calls, and a user token on member calls, are refused
    expect((await ctx.api.authRoutes.profile({ token: body.access })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.employeeProfile({ token: body.access })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.memberProfile({ token: c.token })).statusCode).toBe(401);
    // member refresh rotates; a user refresh token is refused there and vice versa
    const rotated = await ctx.api.authRoutes.memberRefresh({ body: { refresh: body.refresh } });
    expect(rotated.statusCode).toBe(200);
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: rotated.json().refresh } })).statusCode).toBe(401);
    const userSession = await ctx.login(c.email, c.password);
    expect((await ctx.api.authRoutes.memberRefresh({ body: { refresh: userSession.refresh } })).statusCode).toBe(401);
  });
});

describe('mail over SMTP', () => {
  it('delivers through a real SMTP server on 127.0.0.1', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString('utf8');
        });
        stream.on('end', () => {
          received.push(data);
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}/?ignoreTLS=true`,
        from: 'WMS <no-reply@wms.local>',
        dataDir: ctx.dataDir,
        log: { info: () => {} },
      });
      const files = ctx.outbox().length;
      await mailer.send({ to: 'someone@example.tw', subject: 'Hello 你好', text: 'Body 本文' });
      // A password mail goes over SMTP too, and no copy of it is written to the outbox folder.
      await mailer.send({
        to: 'someone@example.tw',
        subject: 'Pw',
        text: 'Password: s3cret-pw',
        carriesPassword: true,
      });
      expect(received).toHaveLength(2);
      expect(received[0]).toContain('someone@example.tw');
      expect(ctx.outbox()).toHaveLength(files);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
