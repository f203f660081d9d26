import http from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { integration_attempts, outbox_messages } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { writeOutbox } from '../../../platform/outbox';
import { isPrivateAddress, maskSecrets, OutgoingHttp } from '../../../platform/outgoing-http';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { webhookDelivery, webhookPayload } from '../integrations.outbox';
import { signWebhookBody, verifyWebhookSignature } from '../providers/webhook';
import { startFakeWebhook, type TFakeWebhook } from './fake-webhook';

const SECRET = 'whsec_partner_0123456789abcdef';
let ctx: TTestContext;
let hook: TFakeWebhook;
beforeAll(async () => {
  // The fake partner listens on 127.0.0.1: this operator allows private targets (the default refuses them).
  ctx = await createTestContext({ OUTGOING_ALLOW_PRIVATE: '1' });
  hook = await startFakeWebhook(SECRET);
});
afterAll(async () => {
  await hook?.close();
  await ctx?.close();
});

const messageOf = async (id: string) =>
  (await ctx.deps.database.db.select().from(outbox_messages).where(eq(outbox_messages.id, id)))[0]!;
/** Let a backing-off delivery run now instead of in 10–40 s (the back-off itself is tested in jobs.int.test.ts). */
const hurryRetries = () =>
  ctx.deps.database.db.execute(
    sql`update pgboss.job set start_after = now() where name = 'outbox.deliver' and state = 'retry'`,
  );

async function deliverAll(until: () => Promise<boolean>) {
  for (let i = 0; i < 100 && !(await until()); i++) {
    await hurryRetries();
    ctx.deps.jobs.kick('outbox.deliver');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('transactional outbox → signed callback', () => {
  it('a rolled-back change sends nothing; a committed one is delivered once, retried through 5xx, signed, logged with secrets masked', async () => {
    const a = await ctx.newCustomer();
    const db = ctx.deps.database.db;
    const payload = (n: number) =>
      webhookPayload(ctx.config.encryptionKey, {
        url: hook.url,
        headers: { 'X-Partner-Token': 'partner-header-token-42' },
        secret: SECRET,
        type: 'order.status_changed',
        data: { order_number: `OUT-${n}`, status: 'closed' },
      });

    await expect(
      withTx(db, async (tx) => {
        await writeOutbox(tx, ctx.deps.jobs, webhookDelivery, payload(1), { customerId: a.customerId });
        throw new Error('the change failed after the message was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.select().from(outbox_messages).where(eq(outbox_messages.customer_id, a.customerId))).toHaveLength(
      0,
    );
    const queued = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pgboss.job where name = 'outbox.deliver'`,
    );
    expect(queued[0]!.n).toBe(0);

    hook.failNext(2, 503);
    const message = await withTx(db, (tx) =>
      writeOutbox(tx, ctx.deps.jobs, webhookDelivery, payload(2), {
        customerId: a.customerId,
        idempotencyKey: 'order-2-closed',
      }),
    );
    // Writing the same message again (a retried request) is a no-op.
    const again = await withTx(db, (tx) =>
      writeOutbox(tx, ctx.deps.jobs, webhookDelivery, payload(2), {
        customerId: a.customerId,
        idempotencyKey: 'order-2-closed',
      }),
    );
    expect(again.id).toBe(message.id);
    ctx.deps.jobs.kick('outbox.deliver');
    await deliverAll(async () => (await messageOf(message.id)).state !== 'pending');

    expect(await messageOf(message.id)).toMatchObject({ state: 'delivered', attempts: 3, last_error: null });
    expect(hook.requests.map((r) => r.status)).toEqual([503, 503, 200]);
    // The same delivery id each time; the partner processed it once; the signature verifies.
    expect(new Set(hook.requests.map((r) => r.headers['idempotency-key']))).toEqual(new Set([message.id]));
    expect(hook.processed.get(message.id)).toEqual({
      id: message.id,
      type: 'order.status_changed',
      created_at: expect.any(String),
      data: { order_number: 'OUT-2', status: 'closed' },
    });
    const last = hook.requests[2]!;
    expect(verifyWebhookSignature(SECRET, last.body, String(last.headers['x-wms-signature']))).toBe(true);
    expect(verifyWebhookSignature('another secret', last.body, String(last.headers['x-wms-signature']))).toBe(false);
    const t = Number(/t=(\d+)/.exec(String(last.headers['x-wms-signature']))![1]);
    expect(last.headers['x-wms-signature']).toBe(signWebhookBody(SECRET, last.body, t));
    // A captured callback replayed 10 minutes later is refused by the timestamp.
    expect(verifyWebhookSignature(SECRET, last.body, String(last.headers['x-wms-signature']), { now: t + 600 })).toBe(
      false,
    );
    expect(last.headers['x-partner-token']).toBe('partner-header-token-42');

    const attempts = await db
      .select()
      .from(integration_attempts)
      .where(eq(integration_attempts.reference, message.id))
      .orderBy(integration_attempts.id);
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(attempts[0]).toMatchObject({
      customer_id: a.customerId,
      provider: 'webhook',
      operation: 'order.status_changed',
      method: 'POST',
    });
    const logged = JSON.stringify(attempts);
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain('partner-header-token-42');
    expect(logged).not.toContain(String(last.headers['x-wms-signature']));
    expect(JSON.stringify(await messageOf(message.id))).not.toContain(SECRET);

    // The seller sees its attempt log through the API; another seller does not.
    const b = await ctx.newCustomer();
    const mine = await ctx.api.integrationRoutes.listIntegrationAttempts({
      query: { reference: message.id },
      token: a.token,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ count: 3, results: [{ status: 200 }, { status: 503 }, { status: 503 }] });
    expect(mine.json().results[0]!.request_headers!['x-wms-signature']).toBe('••••••');
    const theirs = await ctx.api.integrationRoutes.listIntegrationAttempts({
      query: { reference: message.id },
      token: b.token,
    });
    expect(theirs.json()).toMatchObject({ count: 0, results: [] });
  }, 60_000);

  it('an answer that is not worth retrying (400) fails the message at once with the reason', async () => {
    const a = await ctx.newCustomer();
    hook.failNext(1, 400);
    const before = hook.requests.length;
    const message = await withTx(ctx.deps.database.db, (tx) =>
      writeOutbox(
        tx,
        ctx.deps.jobs,
        webhookDelivery,
        webhookPayload(ctx.config.encryptionKey, { url: hook.url, secret: SECRET, type: 'order.cancelled', data: {} }),
        { customerId: a.customerId },
      ),
    );
    ctx.deps.jobs.kick('outbox.deliver');
    await deliverAll(async () => (await messageOf(message.id)).state !== 'pending');
    expect(await messageOf(message.id)).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await messageOf(message.id)).last_error).toContain('PROVIDER_REFUSED');
    expect(hook.requests.length - before).toBe(1);
  });

  it('refuses user-entered URLs to private and loopback addresses unless the operator allows them (SSRF)', async () => {
    const strict = new OutgoingHttp(ctx.deps.database.db, { allowPrivateTargets: false });
    const before = hook.requests.length;
    const port = new URL(hook.url).port;
    for (const url of [
      hook.url,
      `http://localhost:${port}/hooks/wms`,
      `http://[::1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
    ])
      await expect(
        strict.send(
          { method: 'POST', url, body: '{}', userUrl: true },
          { customerId: null, provider: 'webhook', operation: 'ssrf' },
        ),
      ).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    expect(hook.requests.length).toBe(before);
    // An operator-configured provider host (not user-entered) is not subject to the guard.
    const res = await strict.send(
      { method: 'GET', url: hook.url.replace('/hooks/wms', '/health') },
      { customerId: null, provider: 'test', operation: 'fixed-host' },
    );
    expect(res.status).toBe(401);
    const refused = await ctx.deps.database.db
      .select()
      .from(integration_attempts)
      .where(eq(integration_attempts.operation, 'ssrf'));
    expect(refused.map((r) => r.error)).toEqual(Array(4).fill('TARGET_NOT_ALLOWED'));
  });

  it('a GET the host reset on a kept-alive connection is sent once more on a new one; a POST is not sent twice', async () => {
    // A host that resets every request written on an already-used connection (as when its idle timer fires just as
    // the client writes) and answers the first one on each connection.
    const seen: Array<{ method: string; reused: boolean }> = [];
    const server = http.createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      req.resume();
      req.on('end', () => {
        socket.served = (socket.served ?? 0) + 1;
        seen.push({ method: req.method!, reused: socket.served > 1 });
        if (socket.served > 1) socket.resetAndDestroy();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/orders`;
    const client = new OutgoingHttp(ctx.deps.database.db, { allowPrivateTargets: true });
    const at = { customerId: null, provider: 'test', operation: 'keep-alive' };
    try {
      expect((await client.send({ method: 'GET', url }, at)).status).toBe(200);
      // The GET goes out on the kept-alive connection, meets the reset, and is sent once more on a new one.
      const again = await client.send({ method: 'GET', url }, at);
      expect([again.status, again.attempts]).toEqual([200, 1]);
      expect(seen).toEqual([
        { method: 'GET', reused: false },
        { method: 'GET', reused: true },
        { method: 'GET', reused: false },
      ]);
      // A POST on a kept-alive connection that the host resets fails: the host may have acted on it (a charge).
      expect((await client.send({ method: 'POST', url, body: '{"n":1}' }, at)).status).toBe(200);
      await expect(client.send({ method: 'POST', url, body: '{"n":2}' }, at)).rejects.toThrow(/ECONNRESET/);
      expect(seen.slice(3)).toEqual([
        { method: 'POST', reused: false },
        { method: 'POST', reused: true },
      ]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('knows private addresses and masks secrets in what it records', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '203.66.1.1', '2001:4860:4860::8888']) expect(isPrivateAddress(a), a).toBe(false);
    expect(maskSecrets('{"partner_key":"pk_live_1","amount":100,"prime":"abc"}')).toBe(
      '{"partner_key":"••••••","amount":100,"prime":"••••••"}',
    );
    expect(maskSecrets('https://h/api?partner_id=1&sign=deadbeef&access_token=tok')).toBe(
      'https://h/api?partner_id=1&sign=••••••&access_token=••••••',
    );
    expect(maskSecrets('HashKey=5294y06JbISpM5x9&x=1', ['5294y06JbISpM5x9'])).toBe('HashKey=••••••&x=1');
  });
});
