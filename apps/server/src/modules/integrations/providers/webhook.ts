import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../platform/errors';
import type { TProviderServices, TWebhookProvider } from '../../../platform/providers';

/** Header names of our callbacks (INTEGRATIONS.md: "our signature header, HMAC-SHA256 of the raw body"). */
export const WEBHOOK_HEADERS = {
  signature: 'x-wms-signature',
  event: 'x-wms-event',
  delivery: 'x-wms-delivery',
  idempotency: 'idempotency-key',
} as const;

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`: what a partner recomputes to trust a callback.
 * The timestamp is signed too, so a captured callback cannot be replayed later (partners refuse t older than 5 min).
 */
export function signWebhookBody(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Check a signature header against the raw body (what our docs tell a partner to do), with a clock tolerance. */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string,
  header: string,
  opts: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhookBody(secret, rawBody, t));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * A partner's callback URL: POST the event as JSON with the partner's own headers, our signature, the event type and
 * the delivery id (also as `Idempotency-Key`, so the partner can drop a repeated delivery). 2xx is delivered; 408,
 * 429 and 5xx are worth a retry (a plain error: the job backs off and runs again); any other answer is final
 * (PROVIDER_REFUSED).
 * The URL was typed by a seller: private and loopback targets are refused unless the operator allows them.
 */
export function webhookProvider(_setting: unknown, services: TProviderServices): TWebhookProvider {
  return {
    code: 'webhook',
    async deliver(target, event, ctx) {
      const body = JSON.stringify({
        id: event.eventId ?? event.id,
        type: event.type,
        created_at: event.createdAt ?? new Date().toISOString(),
        data: event.data,
      });
      const res = await services.http.send(
        {
          method: 'POST',
          url: target.url,
          userUrl: true,
          // One attempt per job run: the outbox job retries with back-off, and the partner de-duplicates by key.
          idempotent: false,
          timeoutMs: 15_000,
          secrets: [target.secret],
          headers: {
            ...target.headers,
            'content-type': 'application/json; charset=utf-8',
            [WEBHOOK_HEADERS.signature]: signWebhookBody(target.secret, body),
            [WEBHOOK_HEADERS.event]: event.type,
            [WEBHOOK_HEADERS.delivery]: event.id,
            [WEBHOOK_HEADERS.idempotency]: event.id,
          },
          body,
        },
        {
          customerId: ctx.customerId,
          provider: 'webhook',
          operation: event.type,
          reference: ctx.reference ?? event.id,
        },
      );
      if (res.status >= 200 && res.status < 300) return { status: res.status, attempts: res.attempts };
      if (res.status === 408 || res.status === 429 || res.status >= 500)
        throw new Error(`callback answered HTTP ${res.status}`);
      throw new AppError('PROVIDER_REFUSED', { status: res.status });
    },
  };
}
